import type { Kysely } from "kysely";
import type { DB, User } from "../../db/schema";
import type { Ctx } from "../context";
import { conflict } from "../errors";
import { validate } from "../validate";
import { hashPassword } from "./password";
import { NewUser } from "./schemas";

export async function createUser({ ctx, input }: { ctx: Ctx; input: NewUser }): Promise<User> {
  return insertUser(ctx.db, ctx.now(), input);
}

/** Shared with the first-run setup, which creates the user inside its own transaction. */
export async function insertUser(db: Kysely<DB>, now: number, input: NewUser): Promise<User> {
  const user = validate(NewUser, input);
  const existing = await db.selectFrom("users").select("id").where("email", "=", user.email).executeTakeFirst();
  if (existing) throw conflict(`a user with email '${user.email}' already exists`);
  return db
    .insertInto("users")
    .values({
      email: user.email,
      name: user.name,
      password_hash: await hashPassword(user.password),
      is_superuser: user.superuser ? 1 : 0,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countUsers(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
