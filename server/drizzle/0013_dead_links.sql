CREATE TABLE "dead_link_refunds" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "link_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"result" text NOT NULL,
	"reason" text,
	"http_status" integer,
	"final_url" text,
	"trigger" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_states" (
	"share_id" integer PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"state" text DEFAULT 'unchecked' NOT NULL,
	"reason" text,
	"dead_streak" integer DEFAULT 0 NOT NULL,
	"last_checked_at" timestamp with time zone,
	"next_check_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"dead_checks" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "link_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dead_link_refunds" ADD CONSTRAINT "dead_link_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dead_link_refunds" ADD CONSTRAINT "dead_link_refunds_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_checks" ADD CONSTRAINT "link_checks_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_states" ADD CONSTRAINT "link_states_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dead_link_refunds_open_idx" ON "dead_link_refunds" USING btree ("share_id") WHERE state = 'requested';--> statement-breakpoint
CREATE INDEX "link_checks_share_idx" ON "link_checks" USING btree ("share_id","id");--> statement-breakpoint
CREATE INDEX "link_states_due_idx" ON "link_states" USING btree ("next_check_at");--> statement-breakpoint
CREATE INDEX "link_states_state_idx" ON "link_states" USING btree ("state","share_id");