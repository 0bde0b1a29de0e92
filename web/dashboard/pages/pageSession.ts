import type { Role } from "../../../domain/accessPolicy.ts";

/** Who is signed in, as every page's layout shows it: its forms' CSRF token, its role's navigation. */
export type Session = { email: string; csrf: string; role: Role };
