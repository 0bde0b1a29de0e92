import path from "node:path";
import { sql } from "kysely";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../../internal/projectRoot.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/**
 * db/database.ts's `Database` (the tables of db/tables/*.ts) is written by hand, and kysely
 * believes it: a column it lacks cannot be queried, and one it declares wrongly (nullable as
 * not, a bigint as a number) is a lie the compiler passes on to every query. This compares it,
 * table by table and column by column, with the schema the migrations actually build (the
 * template database every test clones), so a migration and the interface cannot drift apart.
 */

const DATABASE_FILE = path.join(projectRoot, "db", "database.ts");

/** Remit's own schema; any other schema the interface names is compared in full too. */
const OWN_SCHEMA = "app";

/** Tables in those schemas that Remit's code never queries through kysely's typed builder. */
const UNDECLARED_TABLES = new Set([
  // kysely's own migration bookkeeping (db/migrate.ts puts it in `app`).
  "app.kysely_migration",
  "app.kysely_migration_lock",
]);

/**
 * What a column reads as through db/database.ts's pools: int8 as a bigint and `date` as its
 * YYYY-MM-DD text (its type parser), numeric as a decimal string, json as the parsed value.
 */
function tsKindOf(column: { data_type: string; udt_name: string }): string {
  const byUdt: Record<string, string> = {
    uuid: "string",
    text: "string",
    varchar: "string",
    bpchar: "string",
    citext: "string",
    numeric: "string",
    date: "string",
    int8: "bigint",
    int4: "number",
    int2: "number",
    float8: "number",
    bool: "boolean",
    timestamptz: "Date",
    timestamp: "Date",
    jsonb: "json",
    json: "json",
    bytea: "Buffer",
  };
  if (column.data_type === "ARRAY") {
    // The int8 parser covers scalars only: an int8[] would read as strings.
    const element = column.udt_name.slice(1);
    const kind = element === "int8" ? "string" : byUdt[element];
    return kind ? `${kind}[]` : `unmapped ${column.udt_name}`;
  }
  if (column.data_type === "USER-DEFINED" && column.udt_name !== "citext") return "string"; // enums
  return byUdt[column.udt_name] ?? `unmapped ${column.udt_name}`;
}

type Column = { kind: string; nullable: boolean };
type Tables = Map<string, Map<string, Column>>;

/** The tables and columns the `Database` interface declares, as the compiler reads them. */
function declaredTables(): Tables {
  const program = ts.createProgram([DATABASE_FILE], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(DATABASE_FILE);
  if (!source) throw new Error(`cannot read ${DATABASE_FILE}`);
  const database = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "Database",
  );
  if (!database) throw new Error("db/database.ts declares no `Database` interface");

  // The interface gathers the tables of db/tables/*.ts by `extends`: its members are read through
  // the checker, each from the file that declares it.
  const symbol = checker.getSymbolAtLocation(database.name);
  if (!symbol) throw new Error("cannot resolve the `Database` interface");
  const tables: Tables = new Map();
  for (const table of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
    // A table is an object type: a literal, or literals joined by `&` (columns that two tables
    // share are written once, e.g. db/tables/payments.ts's transfer progress). Its columns are
    // read through the checker, each from the property that declares it.
    const columns = new Map<string, Column>();
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      const declaration = column.declarations?.[0];
      if (!declaration || !ts.isPropertySignature(declaration) || !declaration.type)
        throw new Error(
          `Database member ${table.name}: column ${column.name} is not declared with a type`,
        );
      columns.set(column.name, describeType(checker, selectTypeOf(checker, declaration.type)));
    }
    if (!columns.size) throw new Error(`Database member ${table.name} declares no columns`);
    tables.set(table.name, columns);
  }
  return tables;
}

/** `Generated<T>` and `ColumnType<S, I, U>` are kysely's wrappers: what a select returns is S. */
function selectTypeOf(checker: ts.TypeChecker, node: ts.TypeNode): ts.Type {
  const type = checker.getTypeFromTypeNode(node);
  const select = type.getProperty("__select__");
  return select ? checker.getTypeOfSymbol(select) : type;
}

function describeType(checker: ts.TypeChecker, type: ts.Type): Column {
  const parts = type.isUnion() ? type.types : [type];
  const nullable = parts.some((t) => t.flags & ts.TypeFlags.Null);
  const kinds = new Set(
    parts.filter((t) => !(t.flags & ts.TypeFlags.Null)).map((t) => kindOf(checker, t)),
  );
  return { kind: [...kinds].sort().join(" | "), nullable };
}

function kindOf(checker: ts.TypeChecker, type: ts.Type): string {
  if (type.flags & ts.TypeFlags.StringLike) return "string";
  if (type.flags & ts.TypeFlags.NumberLike) return "number";
  if (type.flags & ts.TypeFlags.BigIntLike) return "bigint";
  if (type.flags & ts.TypeFlags.BooleanLike) return "boolean";
  if (checker.isArrayType(type)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    return `${element ? kindOf(checker, element) : "unknown"}[]`;
  }
  const name = type.getSymbol()?.getName();
  if (name === "Date" || name === "Buffer") return name;
  if (type.flags & ts.TypeFlags.Object) return "json";
  return `unmapped ${checker.typeToString(type)}`;
}

async function migratedTables(testDb: TestDatabase, schemas: string[]): Promise<Tables> {
  const { rows } = await sql<{
    table_schema: string;
    table_name: string;
    column_name: string;
    is_nullable: "YES" | "NO";
    data_type: string;
    udt_name: string;
  }>`select c.table_schema, c.table_name, c.column_name, c.is_nullable, c.data_type, c.udt_name
     from information_schema.columns c
     join information_schema.tables t using (table_schema, table_name)
     where c.table_schema = any(${schemas}) and t.table_type = 'BASE TABLE'
     order by c.table_schema, c.table_name, c.ordinal_position`.execute(testDb.db);
  const tables: Tables = new Map();
  for (const row of rows) {
    const table = `${row.table_schema}.${row.table_name}`;
    if (UNDECLARED_TABLES.has(table)) continue;
    const columns = tables.get(table) ?? new Map<string, Column>();
    columns.set(row.column_name, { kind: tsKindOf(row), nullable: row.is_nullable === "YES" });
    tables.set(table, columns);
  }
  return tables;
}

const show = (c: Column) => `${c.kind}${c.nullable ? " | null" : ""}`;

/** Every difference, one line each, in words a reader can act on. */
function differences(declared: Tables, migrated: Tables): string[] {
  const found: string[] = [];
  for (const [table, columns] of migrated) {
    const declaredColumns = declared.get(table);
    if (!declaredColumns) {
      found.push(`${table}: table in the schema, missing from db/tables/`);
      continue;
    }
    for (const [name, actual] of columns) {
      const stated = declaredColumns.get(name);
      if (!stated) found.push(`${table}.${name}: column missing from db/tables/ (${show(actual)})`);
      else if (stated.kind !== actual.kind || stated.nullable !== actual.nullable) {
        found.push(
          `${table}.${name}: declared ${show(stated)}, the schema reads as ${show(actual)}`,
        );
      }
    }
    for (const name of declaredColumns.keys()) {
      if (!columns.has(name)) found.push(`${table}.${name}: declared, but no such column`);
    }
  }
  for (const table of declared.keys()) {
    if (!migrated.has(table)) found.push(`${table}: declared, but no such table`);
  }
  return found.sort();
}

describe("db/database.ts matches the migrated schema", () => {
  let testDb: TestDatabase;
  let declared: Tables;
  let migrated: Tables;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    declared = declaredTables();
    const schemas = new Set([
      OWN_SCHEMA,
      ...[...declared.keys()].map((t) => t.split(".")[0] ?? ""),
    ]);
    migrated = await migratedTables(testDb, [...schemas]);
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  test("the reading of both sides sees what it must compare", () => {
    // A comparison of two empty readings would pass everything below.
    expect(declared.get("app.invoices")?.get("total_amount")).toEqual({
      kind: "bigint",
      nullable: false,
    });
    expect(declared.get("app.invoices")?.get("voided_at")).toEqual({
      kind: "Date",
      nullable: true,
    });
    expect(migrated.get("app.invoices")?.get("total_amount")).toEqual({
      kind: "bigint",
      nullable: false,
    });
    expect(migrated.size).toBeGreaterThan(20);
  });

  test("every table and column, its nullability and its type, as declared", () => {
    const found = differences(declared, migrated);
    expect(found, `db/database.ts differs from the migrated schema:\n${found.join("\n")}`).toEqual(
      [],
    );
  });

  test("the comparison reports each kind of drift", () => {
    const table = (entries: [string, Column][]) => new Map(entries);
    const schema: Tables = new Map([
      [
        "app.t",
        table([
          ["a", { kind: "string", nullable: false }],
          ["b", { kind: "bigint", nullable: true }],
          ["c", { kind: "Date", nullable: false }],
        ]),
      ],
      ["app.only_in_schema", table([])],
    ]);
    const stated: Tables = new Map([
      [
        "app.t",
        table([
          ["a", { kind: "string", nullable: false }],
          ["b", { kind: "number", nullable: false }],
          ["gone", { kind: "string", nullable: false }],
        ]),
      ],
      ["app.only_declared", table([])],
    ]);
    expect(differences(stated, schema)).toEqual([
      "app.only_declared: declared, but no such table",
      "app.only_in_schema: table in the schema, missing from db/tables/",
      "app.t.b: declared number, the schema reads as bigint | null",
      "app.t.c: column missing from db/tables/ (Date)",
      "app.t.gone: declared, but no such column",
    ]);
  });
});
