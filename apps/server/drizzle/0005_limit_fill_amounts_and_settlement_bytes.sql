ALTER TABLE "spot_orders" ADD COLUMN "settlement_transaction" text;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "fill_maker_amount" numeric;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "fill_trader_amount" numeric;