CREATE TABLE "faucet_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_address" text NOT NULL,
	"amount_sol" numeric NOT NULL,
	"amount_usdc" numeric NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "faucet_grants" ADD CONSTRAINT "faucet_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "faucet_grants_user_created_idx" ON "faucet_grants" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "faucet_grants_wallet_created_idx" ON "faucet_grants" USING btree ("wallet_address","created_at");