import { createLink } from "../../../app/links/createLink.ts";
import { merchantLinkDetail } from "../../../app/links/linkDetail.ts";
import { CreateLinkSchema, createLinkKnownKeys } from "../../../app/links/schema.ts";
import { linkList } from "../../../app/lists/merchantLists.ts";
import { merchantDefaults } from "../../../app/merchants/settings.ts";
import { formToBody, idempotencyKeyOf, typedAmount, typedAmountErrors } from "../forms.ts";
import type { FormState } from "../pages/formFields.tsx";
import { LinkDetailPage, NewLinkPage } from "../pages/links.tsx";
import { LinksPage } from "../pages/linksPage.tsx";
import { attempt, formProblem, validated } from "../refusals.ts";
import { actorOf, formOf, notFound, readList, type SignedInRoutes, session } from "./shared.tsx";

const LINK_TEXT = [
  "description",
  "amount",
  "currency",
  "merchant_name",
  "wallet_type",
  "wallet_address",
  "webhook_url",
  "redirect_url",
] as const;

/** `/dashboard/links`: the list, a new link's form, and one link's page. */
export const registerLinks: SignedInRoutes = (app, deps) => {
  app.get("/links", async (c) => {
    const list = await readList(c, "links", (actor, page) => linkList(deps, actor, {}, page));
    return c.html(<LinksPage session={list.session} links={list.rows} pager={list.pager} />);
  });
  app.get("/links/new", async (c) => {
    const settings = await merchantDefaults(deps, actorOf(c));
    const state: FormState = {
      values: { merchant_name: settings.default_name ?? "", wallet_type: "managed" },
      lines: [],
      errors: {},
      idempotencyKey: idempotencyKeyOf({}),
      total: null,
    };
    return c.html(<NewLinkPage session={session(c)} state={state} />);
  });
  app.post("/links/new", async (c) => {
    const form = formOf(c);
    const body: Record<string, unknown> = {
      ...formToBody(form, LINK_TEXT),
      merchant_email: c.get("signedIn").identity.merchantEmail,
    };
    if (body.wallet_type !== "byo") delete body.wallet_address;
    const amountErrors = typedAmountErrors({ amount: form.amount ?? "" });
    const amount = typedAmount(form.amount ?? "");
    if (amount.ok) body.amount = amount.value;
    const render = (errors: Record<string, string>, problem?: string) =>
      c.html(
        <NewLinkPage
          session={session(c)}
          state={{
            values: form,
            lines: [],
            errors,
            problem,
            idempotencyKey: idempotencyKeyOf(form),
            total: null,
          }}
        />,
        400,
      );
    const input = validated(CreateLinkSchema, body, createLinkKnownKeys);
    const created = input.ok
      ? await attempt(() => createLink(deps, input.data, idempotencyKeyOf(form), actorOf(c)))
      : input;
    if (created.ok) return c.redirect(`/dashboard/links/${created.slug}?notice=created`, 303);
    const errors = { ...created.fields, ...amountErrors };
    return render(errors, formProblem(errors, undefined, created.message));
  });
  app.get("/links/:slug", async (c) => {
    const detail = await merchantLinkDetail(deps, actorOf(c), c.req.param("slug"));
    if (!detail) return notFound(c, "payment link");
    return c.html(
      <LinkDetailPage
        session={session(c)}
        link={detail.link}
        received={detail.received}
        receivedUsdc={detail.receivedUsdc}
        refunds={detail.refunds}
        snippets={detail.snippets}
        transfers={detail.transfers}
        explorerUrl={deps.explorerUrl}
        notice={c.req.query("notice")}
      />,
    );
  });
};
