import type { ColumnType, Generated } from "kysely";
import type { ScheduleFrequency, ScheduleStatus } from "../../domain/schedule.ts";

/** Invoice schedules and payment reminders: tables of schema `app` as kysely sees them (db/database.ts). Amounts are USDC base units. */
export interface ScheduleTables {
  "app.invoice_schedules": {
    id: Generated<string>;
    merchant_id: string;
    key_id: string | null;
    template: ColumnType<Record<string, unknown>, string, string>;
    frequency: ScheduleFrequency;
    every_n_days: number | null;
    start_date: string;
    end_date: string | null;
    max_count: number | null;
    days_until_due: number;
    status: Generated<ScheduleStatus>;
    next_period: Generated<number>;
    next_issue_date: string | null;
    issued_count: Generated<number>;
    last_error: Generated<string | null>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  "app.reminder_policies": {
    merchant_id: string;
    enabled: boolean;
    step_days: number[];
    step_enabled: boolean[];
    max_reminders: number;
    updated_at: Generated<Date>;
  };
  "app.invoice_reminders": {
    id: Generated<string>;
    invoice_id: string;
    step: number | null;
    amount_due: bigint;
    email_id: string | null;
    sent_at: Date;
    created_at: Generated<Date>;
    /** Whose customer it went to (migration 0038): the merchant, the vendor email lowercased. */
    merchant_id: string;
    customer: string;
  };
  /** When the reminder sweep next looks at an open invoice (migration 0038); null: not until the policy changes. */
  "app.reminder_checks": {
    invoice_id: string;
    check_at: Generated<Date | null>;
    /** The sweep's moment that set check_at. */
    checked_at: Generated<Date | null>;
  };
}
