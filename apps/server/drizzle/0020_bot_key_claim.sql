ALTER TABLE "bot_keys" ADD COLUMN "trading_holder" text;--> statement-breakpoint
ALTER TABLE "bot_keys" ADD COLUMN "trading_until" timestamp with time zone;