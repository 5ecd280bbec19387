CREATE TABLE "channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"price_fen" integer NOT NULL,
	"fee_rate_bp" integer NOT NULL,
	"minimum_income_fen" integer DEFAULT 0 NOT NULL,
	"service_duration_days" integer NOT NULL,
	"status" text DEFAULT 'enable' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"download_limit" integer NOT NULL,
	"price_fen" integer NOT NULL,
	"duration_days" integer NOT NULL,
	"status" text DEFAULT 'on_sale' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seller_balances" (
	"seller_id" integer PRIMARY KEY NOT NULL,
	"balance_fen" bigint DEFAULT 0 NOT NULL,
	"income_fen" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seller_channels" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seller_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"fee_rate_bp" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seller_daily_income" (
	"seller_id" integer NOT NULL,
	"day" text NOT NULL,
	"income_fen" bigint DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "seller_daily_income_seller_id_day_pk" PRIMARY KEY("seller_id","day")
);
--> statement-breakpoint
CREATE TABLE "subscription_unlocks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"subscription_id" bigint NOT NULL,
	"share_id" integer NOT NULL,
	"order_id" bigint,
	"day" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_order_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount_fen" integer NOT NULL,
	"fee_fen" integer NOT NULL,
	"actual_fen" integer NOT NULL,
	"alipay_account" text NOT NULL,
	"alipay_real_name" text NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"transaction_order" text,
	"failure_reason" text,
	"payout_method" text,
	"processed_by" integer,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "withdrawal_id" bigint;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "available_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "product_type" text DEFAULT 'share' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "channel_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "package_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fee_rate_bp" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "settle_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seller_balances" ADD CONSTRAINT "seller_balances_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_channels" ADD CONSTRAINT "seller_channels_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_channels" ADD CONSTRAINT "seller_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_channels" ADD CONSTRAINT "seller_channels_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_daily_income" ADD CONSTRAINT "seller_daily_income_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_unlocks" ADD CONSTRAINT "subscription_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_unlocks" ADD CONSTRAINT "subscription_unlocks_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_unlocks" ADD CONSTRAINT "subscription_unlocks_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_unlocks" ADD CONSTRAINT "subscription_unlocks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_last_order_id_orders_id_fk" FOREIGN KEY ("last_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_processed_by_users_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seller_channels_order_key" ON "seller_channels" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "seller_channels_seller_idx" ON "seller_channels" USING btree ("seller_id","ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_unlocks_user_share_key" ON "subscription_unlocks" USING btree ("user_id","share_id");--> statement-breakpoint
CREATE INDEX "subscription_unlocks_day_idx" ON "subscription_unlocks" USING btree ("user_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_user_package_key" ON "subscriptions" USING btree ("user_id","package_id");--> statement-breakpoint
CREATE INDEX "subscriptions_expires_idx" ON "subscriptions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_withdrawal_kind_key" ON "ledger_entries" USING btree ("withdrawal_id","kind");--> statement-breakpoint
CREATE INDEX "ledger_entries_available_idx" ON "ledger_entries" USING btree ("seller_id","available_at");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
-- Existing data: sales settle 24 hours after payment (the default delay); the aggregates start from the ledger.
UPDATE "orders" SET "settle_at" = "paid_at" + interval '24 hours' WHERE "paid_at" IS NOT NULL AND "settle_at" IS NULL;
--> statement-breakpoint
UPDATE "ledger_entries" l SET "available_at" = COALESCE(o."settle_at", l."created_at") FROM "orders" o WHERE o."id" = l."order_id" AND l."kind" = 'sale';
--> statement-breakpoint
UPDATE "ledger_entries" l SET "available_at" = GREATEST(s."available_at", l."created_at") FROM "ledger_entries" s WHERE s."order_id" = l."order_id" AND s."kind" = 'sale' AND l."kind" = 'refund';
--> statement-breakpoint
INSERT INTO "seller_balances" ("seller_id", "balance_fen", "income_fen") SELECT "seller_id", sum("amount_fen"), sum("amount_fen") FROM "ledger_entries" GROUP BY "seller_id";
--> statement-breakpoint
INSERT INTO "seller_daily_income" ("seller_id", "day", "income_fen", "orders") SELECT "seller_id", to_char(("created_at" AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD'), sum("amount_fen"), count(*) FILTER (WHERE "kind" = 'sale') FROM "ledger_entries" GROUP BY 1, 2;
