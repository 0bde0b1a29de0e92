-- Issue 45. The merchant's underpayment tolerance is an amount of USDC: an invoice priced in a
-- currency takes none (its shortfall is in that currency; it settles to its half-cent,
-- domain/moneyRules.ts CONVERSION_ROUNDING), rather than a USDC figure read as euros.
create or replace function app.snapshot_underpayment_tolerance() returns trigger
language plpgsql as $$
begin
  new.underpayment_tolerance := case
    when new.currency = 'USDC' then coalesce(
      (select m.underpayment_tolerance from app.merchants m where m.id = new.merchant_id), 0)
    else 0
  end;
  return new;
end
$$;
