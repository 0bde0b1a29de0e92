import type { Child } from "hono/jsx";
import { Csrf } from "../layout.tsx";

/** A confirmation: what will happen, the button that does it, and a way back. */
export function ConfirmCard(props: {
  action: string;
  csrf: string;
  button: string;
  cancel: string;
  hidden?: Record<string, string>;
  children: Child;
}) {
  return (
    <section class="card" aria-labelledby="confirm">
      <h2 id="confirm">Please confirm</h2>
      {props.children}
      <form method="post" action={props.action} class="actions">
        <Csrf token={props.csrf} />
        {Object.entries(props.hidden ?? {}).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="1" />
        <button type="submit" class="danger">
          {props.button}
        </button>
        <a href={props.cancel}>Cancel</a>
      </form>
    </section>
  );
}
