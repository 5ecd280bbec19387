CREATE TABLE "fraud_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"seller_id" integer NOT NULL,
	"actor_id" integer,
	"state" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"refunded_count" integer DEFAULT 0 NOT NULL,
	"refunded_fen" bigint DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "fraud_actions" ADD CONSTRAINT "fraud_actions_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fraud_actions" ADD CONSTRAINT "fraud_actions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fraud_actions_seller_key" ON "fraud_actions" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "login_records_ip_idx" ON "login_records" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "login_records_created_idx" ON "login_records" USING btree ("created_at");