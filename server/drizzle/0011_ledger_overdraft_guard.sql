-- Decision 111 (issue 20): the database refuses a withdrawal debit beyond what is withdrawable, so that
-- no code path — a check computed with a stale clock, a missing lock, a future caller — can overdraw.
--
-- A refund takes its sale's available_at (before: the later of that and the refund's time), so a sale
-- and its refund are unsettled or settled together, and the unsettled income — sales and refunds with
-- available_at after "now" — is never negative and never moved by a concurrent posting's timestamp.
UPDATE ledger_entries r SET available_at = s.available_at
FROM ledger_entries s
WHERE r.kind = 'refund' AND s.kind = 'sale' AND s.order_id = r.order_id AND r.available_at <> s.available_at;
--> statement-breakpoint
-- Before a withdrawal's debit goes in: wait for the seller's balance row (the lock every posting takes),
-- then read what committed meanwhile — the balance and the unsettled sales — as of the debit's own time.
-- A replayed debit (same withdrawal) is left to the unique key, which makes it a no-op.
CREATE OR REPLACE FUNCTION ledger_entries_refuse_overdraft() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  balance bigint;
  unsettled bigint;
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_entries WHERE withdrawal_id = NEW.withdrawal_id AND kind = NEW.kind) THEN
    RETURN NEW;
  END IF;
  SELECT balance_fen INTO balance FROM seller_balances WHERE seller_id = NEW.seller_id FOR UPDATE;
  SELECT coalesce(sum(amount_fen), 0) INTO unsettled FROM ledger_entries
    WHERE seller_id = NEW.seller_id AND kind IN ('sale', 'refund') AND available_at > NEW.created_at;
  IF coalesce(balance, 0) - unsettled + NEW.amount_fen < 0 THEN
    RAISE EXCEPTION 'withdrawal of % fen exceeds the withdrawable income (% fen) of seller %',
      -NEW.amount_fen, coalesce(balance, 0) - unsettled, NEW.seller_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entries_no_overdraft';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_overdraft BEFORE INSERT ON ledger_entries
  FOR EACH ROW WHEN (NEW.kind = 'withdrawal') EXECUTE FUNCTION ledger_entries_refuse_overdraft();
