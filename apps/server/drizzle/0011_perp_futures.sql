CREATE TABLE "perp_commands" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"command" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_fills" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "perp_fills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"size" numeric NOT NULL,
	"price" numeric NOT NULL,
	"notional" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_funding" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "perp_funding_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"symbol" text NOT NULL,
	"rate" numeric NOT NULL,
	"user_id" uuid,
	"amount" numeric,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_orders" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"order_type" text NOT NULL,
	"size" numeric NOT NULL,
	"price" numeric,
	"filled_size" numeric NOT NULL,
	"filled_value" numeric NOT NULL,
	"leverage" integer NOT NULL,
	"reduce_only" boolean NOT NULL,
	"post_only" boolean NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_saved_trades" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"trade" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_snapshots" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_trades" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"order_id" bigint NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"role" text NOT NULL,
	"size" numeric NOT NULL,
	"price" numeric NOT NULL,
	"fee" numeric NOT NULL,
	"realized_pnl" numeric NOT NULL,
	"liquidation" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric NOT NULL,
	"wallet_address" text NOT NULL,
	"status" text NOT NULL,
	"signature" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "perp_orders" ADD CONSTRAINT "perp_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_saved_trades" ADD CONSTRAINT "perp_saved_trades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_trades" ADD CONSTRAINT "perp_trades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_transfers" ADD CONSTRAINT "perp_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "perp_fills_symbol_idx" ON "perp_fills" USING btree ("symbol","created_at");--> statement-breakpoint
CREATE INDEX "perp_funding_symbol_idx" ON "perp_funding" USING btree ("symbol","created_at");--> statement-breakpoint
CREATE INDEX "perp_orders_user_idx" ON "perp_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "perp_trades_user_idx" ON "perp_trades" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "perp_transfers_user_idx" ON "perp_transfers" USING btree ("user_id","created_at");