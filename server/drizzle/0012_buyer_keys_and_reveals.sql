CREATE TABLE "order_reveals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"how" text NOT NULL,
	"counts" boolean NOT NULL,
	"user_id" integer,
	"visitor_id" text,
	"ip" text NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"times" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "order_reveals_who_key" UNIQUE NULLS NOT DISTINCT("order_id","how","user_id","visitor_id","ip")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_key_hash" text;--> statement-breakpoint
ALTER TABLE "order_reveals" ADD CONSTRAINT "order_reveals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_reveals" ADD CONSTRAINT "order_reveals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_reveals_order_idx" ON "order_reveals" USING btree ("order_id","last_at");