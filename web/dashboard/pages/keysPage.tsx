import { Alert, Csrf, DashboardLayout } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { Field, type FormState } from "./formFields.tsx";
import type { Session } from "./pageSession.ts";

/** Shown once, right after creation: the key itself (stored only as a hash). */
export function KeysPage(props: {
  session: Session;
  keys: {
    id: string;
    name: string;
    scope: string;
    last_four: string;
    created_at: Date;
    last_used_at: Date | null;
    revoked_at: Date | null;
  }[];
  created?: { key: string; name: string };
  notice?: string;
  state: Pick<FormState, "values" | "errors">;
}) {
  return (
    <DashboardLayout title="API keys" section="/dashboard/keys" {...props.session}>
      {props.notice === "revoked" && <Alert tone="ok">The key is revoked.</Alert>}
      {props.created && (
        <section class="card" aria-labelledby="new-key">
          <h2 id="new-key">Your new key "{props.created.name}"</h2>
          <p>Copy it now: it is shown this once and stored only as a hash.</p>
          <div class="copyrow">
            <code id="api-key">{props.created.key}</code>
            <button type="button" data-copy-target="api-key">
              Copy
            </button>
          </div>
        </section>
      )}
      <section class="card">
        <h2>Create a key</h2>
        <form method="post" action="/dashboard/keys">
          <Csrf token={props.session.csrf} />
          <div class="grid2">
            <Field name="name" label="What it is for" state={props.state} required />
            <div class="field">
              <label for="scope">Scope</label>
              <select id="scope" name="scope">
                <option value="write">write: everything</option>
                <option value="read" selected={props.state.values.scope === "read"}>
                  read: list and read only
                </option>
              </select>
            </div>
          </div>
          <button type="submit" class="primary">
            Create key
          </button>
        </form>
      </section>
      <section class="card">
        <DataTable
          rows={props.keys}
          caption="Your keys"
          rowAttributes={(key) => ({ "data-key": key.id })}
          columns={[
            { label: "Name", cell: (key) => key.name },
            { label: "Scope", cell: (key) => key.scope },
            { label: "Ends in", cell: (key) => <code>…{key.last_four}</code> },
            {
              label: "Last used",
              cell: (key) =>
                key.last_used_at
                  ? key.last_used_at.toISOString().slice(0, 16).replace("T", " ")
                  : "never",
            },
            {
              label: "State",
              cell: (key) =>
                key.revoked_at ? (
                  "revoked"
                ) : (
                  <form method="post" action={`/dashboard/keys/${key.id}/revoke`} class="inline">
                    <Csrf token={props.session.csrf} />
                    <button
                      type="submit"
                      class="danger"
                      aria-label={`Revoke key ${key.name} ending in ${key.last_four}`}
                    >
                      Revoke
                    </button>
                  </form>
                ),
            },
          ]}
        />
      </section>
    </DashboardLayout>
  );
}
