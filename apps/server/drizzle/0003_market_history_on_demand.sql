-- The simulator computes its candle history on demand (its price is a pure function of seed, token
-- and second); the stored history of earlier versions (up to ~1 million rows, ~377 MB) is dropped.
DROP TABLE "market_candles" CASCADE;--> statement-breakpoint
DROP TABLE "market_series" CASCADE;--> statement-breakpoint
DROP TABLE "market_tokens" CASCADE;