CREATE TABLE "server_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"payload" jsonb NOT NULL,
	"signature" text NOT NULL,
	"signed_transaction" text NOT NULL,
	"last_valid_block_height" numeric NOT NULL,
	"status" text NOT NULL,
	"slot" numeric,
	"sent_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "server_tickets" ADD CONSTRAINT "server_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "server_tickets_signature_unique" ON "server_tickets" USING btree ("signature");--> statement-breakpoint
CREATE INDEX "server_tickets_status_idx" ON "server_tickets" USING btree ("status");--> statement-breakpoint
CREATE INDEX "server_tickets_user_idx" ON "server_tickets" USING btree ("user_id");