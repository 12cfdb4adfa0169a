ALTER TABLE "spot_orders" ADD COLUMN "trigger_price" numeric;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "trail_percent" numeric;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "trail_reference" numeric;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "max_slippage_bps" integer;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "oco_with" uuid;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "status_reason" text;--> statement-breakpoint
CREATE INDEX "spot_orders_oco_idx" ON "spot_orders" USING btree ("oco_with");