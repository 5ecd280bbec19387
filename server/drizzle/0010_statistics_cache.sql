CREATE TABLE "order_stats_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" text NOT NULL,
	"seller_id" integer NOT NULL,
	"buyer_id" integer,
	"orders" integer NOT NULL,
	"completed" integer NOT NULL,
	"pending" integer NOT NULL,
	"failed" integer NOT NULL,
	"refunded" integer NOT NULL,
	"free" integer NOT NULL,
	"amount_fen" bigint NOT NULL,
	"completed_fen" bigint NOT NULL,
	"pending_fen" bigint NOT NULL,
	"refund_fen" bigint NOT NULL,
	"fee_fen" bigint NOT NULL,
	"income_fen" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_daily_stats" ADD COLUMN "changes" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
-- hand-written
-- Each row of order_daily_stats counts the order changes it took (`changes`, decision 101): 1 when
-- made (the DEFAULT above gives the existing rows 1 without rewriting them), plus 1 at every change;
-- and each change is also written to order_stats_log, one row per call (so one row per `changes`
-- added to the day's platform row). The admin statistics keep past days' per-user sums, add the log
-- rows after the last they saw, and check by the sum of `changes` over those days that none was
-- missed (a transaction that commits out of id order) — else they sum those days again.
CREATE OR REPLACE FUNCTION order_daily_stats_add(o orders, s integer) RETURNS void LANGUAGE plpgsql AS $$
-- Variables are v_… so they never read as the table's columns of the same name.
DECLARE
  v_day text := to_char((o.created_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD');
  v_done integer := CASE WHEN o.payment_status = 'Completed' THEN 1 ELSE 0 END;
  v_pend integer := CASE WHEN o.payment_status = 'Pending' THEN 1 ELSE 0 END;
  v_fail integer := CASE WHEN o.payment_status = 'Failed' THEN 1 ELSE 0 END;
  v_refd integer := CASE WHEN o.payment_status = 'Refund' THEN 1 ELSE 0 END;
  v_free integer := CASE WHEN o.payment_status = 'Completed' AND o.amount_fen = 0 THEN 1 ELSE 0 END;
  v_side text;
  v_key text;
  v_uid integer;
BEGIN
  -- Per user by day and by month (a range reads whole months from the monthly rows, decision 074), and
  -- the platform by day over 8 shards (the order id modulo 8), so concurrent orders of one day do not
  -- all wait on one row, while a day of the platform is still only 8 rows.
  FOREACH v_side IN ARRAY ARRAY['seller', 'buyer', 'seller_month', 'buyer_month', 'platform'] LOOP
    v_uid := CASE WHEN v_side IN ('seller', 'seller_month') THEN coalesce(o.seller_id, 0)
                  WHEN v_side = 'platform' THEN o.id % 8 ELSE o.buyer_id END;
    CONTINUE WHEN v_uid IS NULL;
    v_key := CASE WHEN v_side LIKE '%_month' THEN substr(v_day, 1, 7) ELSE v_day END;
    INSERT INTO order_daily_stats AS t (side, day, user_id, orders, completed, pending, failed, refunded, free,
                                        amount_fen, completed_fen, pending_fen, refund_fen, fee_fen, income_fen, changes)
    VALUES (v_side, v_key, v_uid, s, s * v_done, s * v_pend, s * v_fail, s * v_refd, s * v_free,
            s * o.amount_fen, s * v_done * o.amount_fen, s * v_pend * o.amount_fen, s * v_refd * o.amount_fen,
            s * v_done * coalesce(o.fee_fen, 0), s * v_done * coalesce(o.seller_income_fen, 0), 1)
    ON CONFLICT (side, day, user_id) DO UPDATE SET
      orders = t.orders + excluded.orders, completed = t.completed + excluded.completed,
      pending = t.pending + excluded.pending, failed = t.failed + excluded.failed,
      refunded = t.refunded + excluded.refunded, free = t.free + excluded.free,
      amount_fen = t.amount_fen + excluded.amount_fen, completed_fen = t.completed_fen + excluded.completed_fen,
      pending_fen = t.pending_fen + excluded.pending_fen, refund_fen = t.refund_fen + excluded.refund_fen,
      fee_fen = t.fee_fen + excluded.fee_fen, income_fen = t.income_fen + excluded.income_fen,
      changes = t.changes + 1;
  END LOOP;
  INSERT INTO order_stats_log (day, seller_id, buyer_id, orders, completed, pending, failed, refunded, free,
                               amount_fen, completed_fen, pending_fen, refund_fen, fee_fen, income_fen)
  VALUES (v_day, coalesce(o.seller_id, 0), o.buyer_id, s, s * v_done, s * v_pend, s * v_fail, s * v_refd, s * v_free,
          s * o.amount_fen, s * v_done * o.amount_fen, s * v_pend * o.amount_fen, s * v_refd * o.amount_fen,
          s * v_done * coalesce(o.fee_fen, 0), s * v_done * coalesce(o.seller_income_fen, 0));
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_daily_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  -- Every rebuilt row starts above the sum of all the old rows' changes, so the changes of any days
  -- differ from what they were before the rebuild (a cache checked against them cannot be fooled).
  v_changes bigint := (SELECT coalesce(sum(changes), 0) + 1 FROM order_daily_stats);
BEGIN
  DELETE FROM order_stats_log;
  DELETE FROM order_daily_stats;
  INSERT INTO order_daily_stats (side, day, user_id, orders, completed, pending, failed, refunded, free,
                                 amount_fen, completed_fen, pending_fen, refund_fen, fee_fen, income_fen, changes)
  SELECT x.side, CASE WHEN x.side LIKE '%_month' THEN substr(d.day, 1, 7) ELSE d.day END, x.user_id,
         count(*),
         count(*) FILTER (WHERE o.payment_status = 'Completed'),
         count(*) FILTER (WHERE o.payment_status = 'Pending'),
         count(*) FILTER (WHERE o.payment_status = 'Failed'),
         count(*) FILTER (WHERE o.payment_status = 'Refund'),
         count(*) FILTER (WHERE o.payment_status = 'Completed' AND o.amount_fen = 0),
         sum(o.amount_fen),
         coalesce(sum(o.amount_fen) FILTER (WHERE o.payment_status = 'Completed'), 0),
         coalesce(sum(o.amount_fen) FILTER (WHERE o.payment_status = 'Pending'), 0),
         coalesce(sum(o.amount_fen) FILTER (WHERE o.payment_status = 'Refund'), 0),
         coalesce(sum(coalesce(o.fee_fen, 0)) FILTER (WHERE o.payment_status = 'Completed'), 0),
         coalesce(sum(coalesce(o.seller_income_fen, 0)) FILTER (WHERE o.payment_status = 'Completed'), 0),
         v_changes
  FROM orders o
  CROSS JOIN LATERAL (SELECT to_char((o.created_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD') AS day) d
  CROSS JOIN LATERAL (VALUES ('seller', coalesce(o.seller_id, 0)), ('buyer', o.buyer_id), ('seller_month', coalesce(o.seller_id, 0)),
                             ('buyer_month', o.buyer_id), ('platform', (o.id % 8)::integer)) AS x(side, user_id)
  WHERE x.user_id IS NOT NULL
  GROUP BY 1, 2, 3
  -- Written in key order, so a day range reads few pages (live rows arrive day by day anyway).
  ORDER BY 1, 2, 3;
END;
$$;
