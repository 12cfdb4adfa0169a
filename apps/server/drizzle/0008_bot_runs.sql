CREATE TABLE "bot_fills" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bot_id" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"side" text NOT NULL,
	"base_amount" text NOT NULL,
	"quote_amount" text NOT NULL,
	"pnl" text,
	"reason" text NOT NULL,
	CONSTRAINT "bot_fills_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "bot_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"message" text,
	"strategy_type" text NOT NULL,
	"config" jsonb NOT NULL,
	"initial_cash" text NOT NULL,
	"quote_usd_price" text NOT NULL,
	"base_decimals" integer NOT NULL,
	"quote_decimals" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"first_candle" bigint NOT NULL,
	"last_candle" bigint,
	"last_close" text
);
--> statement-breakpoint
ALTER TABLE "bot_fills" ADD CONSTRAINT "bot_fills_run_id_bot_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bot_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_runs" ADD CONSTRAINT "bot_runs_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_runs" ADD CONSTRAINT "bot_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_fills_bot_idx" ON "bot_fills" USING btree ("bot_id","time");--> statement-breakpoint
CREATE INDEX "bot_runs_bot_idx" ON "bot_runs" USING btree ("bot_id","started_at");--> statement-breakpoint
CREATE INDEX "bot_runs_status_idx" ON "bot_runs" USING btree ("status");