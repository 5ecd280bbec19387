CREATE TABLE "oauth_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"user_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"state_used_at" timestamp with time zone,
	"ticket_hash" text,
	"openid" text,
	"unionid" text,
	"nickname" text,
	"ticket_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"openid" text NOT NULL,
	"unionid" text,
	"user_id" integer NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "login_records" ADD COLUMN "method" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_attempts" ADD CONSTRAINT "oauth_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_identities" ADD CONSTRAINT "oauth_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_attempts_state_key" ON "oauth_attempts" USING btree ("state_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_attempts_ticket_key" ON "oauth_attempts" USING btree ("ticket_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_identities_openid_key" ON "oauth_identities" USING btree ("provider","openid");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_identities_unionid_key" ON "oauth_identities" USING btree ("provider","unionid");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_identities_user_key" ON "oauth_identities" USING btree ("user_id","provider");