CREATE TABLE "order_daily_stats" (
	"side" text NOT NULL,
	"day" text NOT NULL,
	"user_id" integer NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"free" integer DEFAULT 0 NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	"completed_fen" bigint DEFAULT 0 NOT NULL,
	"pending_fen" bigint DEFAULT 0 NOT NULL,
	"refund_fen" bigint DEFAULT 0 NOT NULL,
	"fee_fen" bigint DEFAULT 0 NOT NULL,
	"income_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "order_daily_stats_side_day_user_id_pk" PRIMARY KEY("side","day","user_id")
);
--> statement-breakpoint
CREATE INDEX "withdrawals_created_idx" ON "withdrawals" USING btree ("created_at");
--> statement-breakpoint
-- hand-written
-- The admin order list by status, newest first: the count of a status (and a date range of it) reads this
-- index alone — the columns of the list's left joins are included, since PostgreSQL still wants them after
-- it removes those joins from the count (decision 074). Drizzle cannot write INCLUDE.
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("payment_status", "created_at") INCLUDE ("share_id", "buyer_id", "seller_id");--> statement-breakpoint
-- order_daily_stats is kept by a trigger on orders, in the transaction of every insert and
-- every change of what it sums, whoever writes the order (decision 073). The day is the Asia/Shanghai
-- day of created_at (UTC+8, no daylight saving), as contract/days.ts computes it.
CREATE FUNCTION order_daily_stats_add(o orders, s integer) RETURNS void LANGUAGE plpgsql AS $$
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
                                        amount_fen, completed_fen, pending_fen, refund_fen, fee_fen, income_fen)
    VALUES (v_side, v_key, v_uid, s, s * v_done, s * v_pend, s * v_fail, s * v_refd, s * v_free,
            s * o.amount_fen, s * v_done * o.amount_fen, s * v_pend * o.amount_fen, s * v_refd * o.amount_fen,
            s * v_done * coalesce(o.fee_fen, 0), s * v_done * coalesce(o.seller_income_fen, 0))
    ON CONFLICT (side, day, user_id) DO UPDATE SET
      orders = t.orders + excluded.orders, completed = t.completed + excluded.completed,
      pending = t.pending + excluded.pending, failed = t.failed + excluded.failed,
      refunded = t.refunded + excluded.refunded, free = t.free + excluded.free,
      amount_fen = t.amount_fen + excluded.amount_fen, completed_fen = t.completed_fen + excluded.completed_fen,
      pending_fen = t.pending_fen + excluded.pending_fen, refund_fen = t.refund_fen + excluded.refund_fen,
      fee_fen = t.fee_fen + excluded.fee_fen, income_fen = t.income_fen + excluded.income_fen;
  END LOOP;
END;
$$;--> statement-breakpoint
CREATE FUNCTION order_daily_stats_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM order_daily_stats_add(OLD, -1); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM order_daily_stats_add(NEW, 1); END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER order_daily_stats_insert_delete AFTER INSERT OR DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION order_daily_stats_trigger();--> statement-breakpoint
CREATE TRIGGER order_daily_stats_update AFTER UPDATE ON "orders" FOR EACH ROW
  WHEN (OLD.payment_status IS DISTINCT FROM NEW.payment_status OR OLD.amount_fen IS DISTINCT FROM NEW.amount_fen
        OR OLD.fee_fen IS DISTINCT FROM NEW.fee_fen OR OLD.seller_income_fen IS DISTINCT FROM NEW.seller_income_fen
        OR OLD.seller_id IS DISTINCT FROM NEW.seller_id OR OLD.buyer_id IS DISTINCT FROM NEW.buyer_id
        OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION order_daily_stats_trigger();--> statement-breakpoint
-- The whole table again from the orders: the back-fill below, and bulk loads that set the triggers aside.
CREATE FUNCTION order_daily_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_daily_stats;
  INSERT INTO order_daily_stats (side, day, user_id, orders, completed, pending, failed, refunded, free,
                                 amount_fen, completed_fen, pending_fen, refund_fen, fee_fen, income_fen)
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
         coalesce(sum(coalesce(o.seller_income_fen, 0)) FILTER (WHERE o.payment_status = 'Completed'), 0)
  FROM orders o
  CROSS JOIN LATERAL (SELECT to_char((o.created_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD') AS day) d
  CROSS JOIN LATERAL (VALUES ('seller', coalesce(o.seller_id, 0)), ('buyer', o.buyer_id), ('seller_month', coalesce(o.seller_id, 0)),
                             ('buyer_month', o.buyer_id), ('platform', (o.id % 8)::integer)) AS x(side, user_id)
  WHERE x.user_id IS NOT NULL
  GROUP BY 1, 2, 3
  -- Written in key order, so a day range reads few pages (live rows arrive day by day anyway).
  ORDER BY 1, 2, 3;
END;
$$;--> statement-breakpoint
SELECT order_daily_stats_rebuild();
