-- An email handed to the provider whose acceptance is not yet recorded is 'sending'. A job
-- that finds one in this state (its predecessor died between the hand-over and the mark) asks
-- the provider whether the message arrived before sending it again (worker/tasks/send_email.ts).
alter table app.emails drop constraint emails_status_check;
alter table app.emails add constraint emails_status_check
  check (status in ('queued', 'sending', 'sent', 'failed'));
alter table app.emails add column handed_over_at timestamptz;
