CREATE TABLE "inbound_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_key" text NOT NULL,
	"order_no" text NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seller_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"order_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"share_id" integer,
	"seller_id" integer,
	"buyer_id" integer,
	"product_name" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"payment_method" text NOT NULL,
	"provider" text NOT NULL,
	"payment_status" text DEFAULT 'Pending' NOT NULL,
	"provider_trade_no" text,
	"checkout_url" text,
	"fee_fen" integer,
	"seller_income_fen" integer,
	"buyer_ip" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"last_queried_at" timestamp with time zone,
	"first_revealed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_visits" (
	"share_id" integer NOT NULL,
	"visitor_key" text NOT NULL,
	"day" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shares" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"unicode" text NOT NULL,
	"type" text NOT NULL,
	"content_enc" text NOT NULL,
	"extraction_code_enc" text,
	"price_fen" integer NOT NULL,
	"status" text DEFAULT 'under_review' NOT NULL,
	"subscription_status" text DEFAULT 'close' NOT NULL,
	"visit_count" integer DEFAULT 0 NOT NULL,
	"purchase_count" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_visits" ADD CONSTRAINT "share_visits_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_events_key" ON "inbound_events" USING btree ("provider","event_key");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_order_kind_key" ON "ledger_entries" USING btree ("order_id","kind");--> statement-breakpoint
CREATE INDEX "ledger_entries_seller_idx" ON "ledger_entries" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_no_key" ON "orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_trade_key" ON "orders" USING btree ("provider","provider_trade_no");--> statement-breakpoint
CREATE INDEX "orders_share_idx" ON "orders" USING btree ("share_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_seller_idx" ON "orders" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_buyer_idx" ON "orders" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_pending_idx" ON "orders" USING btree ("payment_status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "share_visits_key" ON "share_visits" USING btree ("share_id","visitor_key","day");--> statement-breakpoint
CREATE UNIQUE INDEX "shares_unicode_key" ON "shares" USING btree ("unicode");--> statement-breakpoint
CREATE INDEX "shares_user_idx" ON "shares" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "shares_status_idx" ON "shares" USING btree ("status");