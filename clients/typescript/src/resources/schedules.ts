// Invoice schedules and payment reminders.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import type {
  CreateInvoiceScheduleRequest,
  ListFilters,
  UpdateInvoiceScheduleRequest,
  UpdateReminderPolicyRequest,
} from "../types.js";

/** `remit.schedules`. */
export function schedules(api: Operations) {
  return {
    /** A schedule that issues an invoice at each occurrence. */
    create: (body: CreateInvoiceScheduleRequest, options?: RequestOptions) =>
      api.operation("post", "/api/invoice-schedules", { body, options }),
    /** Every schedule matching `filters`, newest first, page after page. */
    list: (filters: ListFilters<"/api/invoice-schedules"> = {}, options?: RequestOptions) =>
      api.list("/api/invoice-schedules", filters, options),
    get: (id: string, options?: RequestOptions) =>
      api.operation("get", "/api/invoice-schedules/{id}", { params: { id }, options }),
    update: (id: string, body: UpdateInvoiceScheduleRequest, options?: RequestOptions) =>
      api.operation("patch", "/api/invoice-schedules/{id}", { params: { id }, body, options }),
    pause: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoice-schedules/{id}/pause", { params: { id }, options }),
    resume: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoice-schedules/{id}/resume", { params: { id }, options }),
    cancel: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoice-schedules/{id}/cancel", { params: { id }, options }),
    /** Issues the schedule's next invoice now (not retried: it would issue another). */
    run: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoice-schedules/{id}/run", { params: { id }, options }),
  };
}

export type Schedules = ReturnType<typeof schedules>;

/** `remit.reminders`. */
export function reminders(api: Operations) {
  return {
    /** The account's payment reminder policy. */
    policy: (options?: RequestOptions) => api.operation("get", "/api/reminder-policy", { options }),
    updatePolicy: (body: UpdateReminderPolicyRequest, options?: RequestOptions) =>
      api.operation("patch", "/api/reminder-policy", { body, options }),
    /** Emails the vendor of invoice `id` a reminder now (as `invoices.remind`). */
    send: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoices/{id}/remind", { params: { id }, options }),
  };
}

export type Reminders = ReturnType<typeof reminders>;
