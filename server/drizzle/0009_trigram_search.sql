-- hand-written
-- The admin keyword filters are ILIKE '%…%' (contains, case-insensitive, db/search.ts): no b-tree serves
-- them, a trigram GIN index does (decision 098). pg_trgm ships with PostgreSQL's contrib (a trusted
-- extension: the database's owner may create it) and with PGlite (@electric-sql/pglite/contrib/pg_trgm,
-- loaded by db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "login_records_user_name_trgm_idx" ON "login_records" USING gin ("user_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "login_records_email_trgm_idx" ON "login_records" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "login_records_ip_trgm_idx" ON "login_records" USING gin ("ip" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_product_name_trgm_idx" ON "orders" USING gin ("product_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "shares_title_trgm_idx" ON "shares" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_user_name_trgm_idx" ON "users" USING gin ("user_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_trgm_idx" ON "users" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "withdrawals_alipay_account_trgm_idx" ON "withdrawals" USING gin ("alipay_account" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "withdrawals_alipay_real_name_trgm_idx" ON "withdrawals" USING gin ("alipay_real_name" gin_trgm_ops);
