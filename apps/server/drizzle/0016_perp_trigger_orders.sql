ALTER TABLE "perp_orders" ADD COLUMN "trigger_price" numeric;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "tpsl" text;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "triggered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "status_reason" text;