CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"status_code" numeric,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "spot_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_address" text NOT NULL,
	"symbol" text NOT NULL,
	"base_mint" text NOT NULL,
	"quote_mint" text NOT NULL,
	"order_type" text NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric NOT NULL,
	"base_amount" numeric NOT NULL,
	"price" numeric,
	"status" text NOT NULL,
	"tx_hash" text,
	"settlement_tx_hash" text,
	"settlement_valid_until" numeric,
	"filled_quantity" numeric NOT NULL,
	"average_fill_price" numeric,
	"escrow_leg" text,
	"escrow_amount" numeric,
	"settle_amount" numeric,
	"receipt" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spot_trades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"order_type" text NOT NULL,
	"quantity" numeric NOT NULL,
	"price" numeric NOT NULL,
	"tx_hash" text NOT NULL,
	"receipt" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"wallet_address" text NOT NULL,
	"message_hash" text NOT NULL,
	"last_valid_block_height" numeric NOT NULL,
	"payload" jsonb NOT NULL,
	"order_id" uuid,
	"status" text NOT NULL,
	"signature" text,
	"signed_transaction" text,
	"sent_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD CONSTRAINT "spot_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spot_trades" ADD CONSTRAINT "spot_trades_order_id_spot_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."spot_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spot_trades" ADD CONSTRAINT "spot_trades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_tickets" ADD CONSTRAINT "transaction_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "spot_orders_tx_hash_unique" ON "spot_orders" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "spot_orders_user_idx" ON "spot_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "spot_orders_status_idx" ON "spot_orders" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "spot_trades_order_unique" ON "spot_trades" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "spot_trades_user_idx" ON "spot_trades" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_tickets_message_unique" ON "transaction_tickets" USING btree ("message_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_tickets_signature_unique" ON "transaction_tickets" USING btree ("signature");--> statement-breakpoint
CREATE INDEX "transaction_tickets_status_idx" ON "transaction_tickets" USING btree ("status");