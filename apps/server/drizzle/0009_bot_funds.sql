CREATE TABLE "bot_delegations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_address" text NOT NULL,
	"bot_address" text NOT NULL,
	"token_mint" text NOT NULL,
	"amount_lamports" text NOT NULL,
	"status" text NOT NULL,
	"unsigned_transaction" text,
	"instructions" jsonb NOT NULL,
	"approve_signature" text,
	"revoke_signature" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_keys" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"encrypted_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_keys_address_unique" UNIQUE("address")
);
--> statement-breakpoint
CREATE TABLE "bot_orders" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"side" text NOT NULL,
	"base_amount" text NOT NULL,
	"quote_amount" text NOT NULL,
	"signature" text NOT NULL,
	"last_valid_block_height" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bot_orders_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "bot_fills" ADD COLUMN "tx_signature" text;--> statement-breakpoint
ALTER TABLE "bot_delegations" ADD CONSTRAINT "bot_delegations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_keys" ADD CONSTRAINT "bot_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_orders" ADD CONSTRAINT "bot_orders_run_id_bot_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bot_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_delegations_user_idx" ON "bot_delegations" USING btree ("user_id","created_at");