import type { Ctx } from "../context";
import { conflict } from "../errors";
import { validate } from "../validate";
import { hashPassword } from "./password";
import { NewUser } from "./schemas";
import type { User } from "./user";

export async function createUser({ ctx, input }: { ctx: Ctx; input: NewUser }): Promise<User> {
  const user = validate(NewUser, input);
  const added = await ctx.accounts.addUser(
    { email: user.email, name: user.name, passwordHash: await hashPassword(user.password), superuser: user.superuser },
    ctx.now(),
  );
  if (!added) throw conflict(`a user with email '${user.email}' already exists`);
  return added;
}
