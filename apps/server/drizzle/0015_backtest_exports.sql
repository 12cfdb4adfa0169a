CREATE TABLE "backtest_export_parts" (
	"export_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"csv" text NOT NULL,
	CONSTRAINT "backtest_export_parts_export_id_seq_pk" PRIMARY KEY("export_id","seq")
);
--> statement-breakpoint
CREATE TABLE "backtest_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"fills" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "backtest_export_parts" ADD CONSTRAINT "backtest_export_parts_export_id_backtest_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."backtest_exports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backtest_exports" ADD CONSTRAINT "backtest_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;