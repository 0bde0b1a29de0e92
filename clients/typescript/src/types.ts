// Names for the generated types (schema.ts, from the API's OpenAPI document): every request and
// response type of the client is looked up here, never written again by hand, so a change to the
// API changes the client's types at the next `npm run client:generate`.
import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";

type Schemas = components["schemas"];

/** The operation `method` of `path` in the document. */
export type Operation<
  Path extends keyof paths,
  Method extends keyof paths[Path],
> = paths[Path][Method];

type JsonContent<Response> = Response extends { content: { "application/json": infer Body } }
  ? Body
  : never;

/** The JSON body of the operation's success (2xx) answer. */
export type SuccessBody<Path extends keyof paths, Method extends keyof paths[Path]> =
  Operation<Path, Method> extends { responses: infer Responses }
    ? JsonContent<Responses[Extract<keyof Responses, 200 | 201 | 202>]>
    : never;

/** The operation's JSON request body. */
export type RequestBody<Path extends keyof paths, Method extends keyof paths[Path]> =
  Operation<Path, Method> extends { requestBody: { content: { "application/json": infer Body } } }
    ? Body
    : Operation<Path, Method> extends {
          requestBody?: { content: { "application/json": infer Body } };
        }
      ? Body
      : never;

/** The operation's query parameters. */
export type QueryOf<Path extends keyof paths, Method extends keyof paths[Path]> =
  Operation<Path, Method> extends { parameters: { query?: infer Query } }
    ? NonNullable<Query>
    : never;

/**
 * A list's filters: the query parameters but the paging ones, which the iterator owns; `limit`
 * (the page size, 1–200) may be given as a number.
 */
export type ListFilters<Path extends keyof paths> = Omit<
  QueryOf<Path, "get" & keyof paths[Path]>,
  "cursor" | "limit"
> & {
  limit?: number | string;
};

/** The element of a paged list's `data`. */
export type ListItem<Path extends keyof paths> =
  SuccessBody<Path, "get" & keyof paths[Path]> extends { data: (infer Item)[] } ? Item : never;

/** One page of a list, as the API answers it. */
export type Page<Item> = { data: Item[]; next_cursor: string | null };

export type CreateInvoiceRequest = Schemas["CreateInvoiceRequest"];
export type CreateInvoiceResponse = Schemas["CreateInvoiceResponse"];
export type Invoice = Schemas["Invoice"];
export type InvoiceSummary = Schemas["InvoiceSummary"];
export type InvoiceStatusResponse = Schemas["InvoiceStatusResponse"];
export type InvoiceWebhooks = SuccessBody<"/api/invoices/{id}/webhooks", "get">;
export type CreateLinkRequest = Schemas["CreateLinkRequest"];
export type CreateLinkResponse = Schemas["CreateLinkResponse"];
export type PaymentLink = Schemas["PaymentLink"];
export type LinkSummary = Schemas["LinkSummary"];
export type Payment = Schemas["Payment"];
export type CreateRefundRequest = Schemas["CreateRefundRequest"];
export type CreateCreditNoteRequest = Schemas["CreateCreditNoteRequest"];
export type CreditNote = Schemas["CreditNote"];
export type CreatePayoutRequest = Schemas["CreatePayoutRequest"];
export type CreateRefundResponse = Schemas["CreateRefundResponse"];
export type Event = Schemas["Event"];
export type EventDetail = SuccessBody<"/api/events/{id}", "get">;
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointWithSecret = Schemas["WebhookEndpointWithSecret"];
export type CreateWebhookEndpoint = Schemas["CreateWebhookEndpoint"];
export type UpdateWebhookEndpoint = Schemas["UpdateWebhookEndpoint"];
export type WebhookTestEvent = Schemas["WebhookTestEvent"];
export type ApiErrorBody = Schemas["Error"];
export type FieldError = NonNullable<ApiErrorBody["error"]["fields"]>[number];
export type ApiKey = Schemas["ApiKey"];
export type CreateApiKey = Schemas["CreateApiKey"];
export type CreatedApiKey = Schemas["CreatedApiKey"];
export type Member = Schemas["Member"];
export type InviteMember = Schemas["InviteMember"];
export type ChangeMember = Schemas["ChangeMember"];
export type PayoutWallet = Schemas["PayoutWallet"];
export type AddPayoutWallet = Schemas["AddPayoutWallet"];
export type Payout = Schemas["Payout"];
export type MerchantSettings = Schemas["MerchantSettings"];
export type UpdateMerchantSettings = Schemas["UpdateMerchantSettings"];
export type AuditEntry = Schemas["AuditEntry"];
export type PaymentStatusResponse = Schemas["PaymentStatusResponse"];
export type PayerAuthorization = Schemas["PayerAuthorization"];
export type CreateAuthorizationRequest = Schemas["CreateAuthorizationRequest"];
export type X402Receipt = Schemas["X402Receipt"];
export type InvoiceSchedule = Schemas["InvoiceSchedule"];
export type CreateInvoiceScheduleRequest = Schemas["CreateInvoiceScheduleRequest"];
export type UpdateInvoiceScheduleRequest = Schemas["UpdateInvoiceScheduleRequest"];
export type ReminderPolicy = Schemas["ReminderPolicy"];
export type UpdateReminderPolicyRequest = Schemas["UpdateReminderPolicyRequest"];
export type Reminder = Schemas["Reminder"];
export type ReceivablesReport = Schemas["ReceivablesReport"];
export type TransactionLookup = Schemas["TransactionLookup"];

/**
 * What `x402.pay` answers: a 402 asking for a payment (`paymentRequired`, base64 JSON
 * `PaymentRequired`; after a refused payment, the error's code), or a receipt (200: paid,
 * settled, void or processing; 202: sent, not yet in a block).
 */
export type X402Answer =
  | {
      status: 402;
      error: ApiErrorBody["error"];
      paymentRequired: string | null;
      paymentResponse: string | null;
      receipt?: never;
    }
  | {
      status: 200 | 202;
      receipt: X402Receipt;
      paymentRequired: string | null;
      paymentResponse: string | null;
      error?: never;
    };
