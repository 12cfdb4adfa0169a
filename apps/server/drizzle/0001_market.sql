CREATE TABLE "market_candles" (
	"token_id" integer NOT NULL,
	"resolution_seconds" integer NOT NULL,
	"open_time" bigint NOT NULL,
	"open" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	"close" numeric NOT NULL,
	"volume_usd" numeric NOT NULL,
	CONSTRAINT "market_candles_token_id_resolution_seconds_open_time_pk" PRIMARY KEY("token_id","resolution_seconds","open_time")
);
--> statement-breakpoint
CREATE TABLE "market_series" (
	"token_id" integer NOT NULL,
	"resolution_seconds" integer NOT NULL,
	"generator" text NOT NULL,
	"first_open_time" bigint NOT NULL,
	"last_open_time" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_series_token_id_resolution_seconds_pk" PRIMARY KEY("token_id","resolution_seconds")
);
--> statement-breakpoint
CREATE TABLE "market_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "market_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"mint" text NOT NULL,
	"symbol" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_tokens_mint_unique" UNIQUE("mint")
);
--> statement-breakpoint
ALTER TABLE "market_candles" ADD CONSTRAINT "market_candles_token_id_market_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."market_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_series" ADD CONSTRAINT "market_series_token_id_market_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."market_tokens"("id") ON DELETE cascade ON UPDATE no action;