export type Session = { email: string; csrf: string };
