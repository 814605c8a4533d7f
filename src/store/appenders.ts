/**
 * Bulk row writing through DuckDB appenders, one cached appender per table. DuckDB's C++ appender flushes through
 * the connection's client context, so inside an explicit BEGIN … COMMIT its rows belong to that transaction and a
 * ROLLBACK discards them (checked in store.test.ts): the store keeps one-transaction-per-question atomicity at
 * appender speed. Rows must be flushed before COMMIT; after a failure `clear()` drops half-built rows.
 */
import { DOUBLE, LIST, VARCHAR, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import type { Cell, CellType, TableCells } from './row-cells.ts';

const VARCHAR_LIST = LIST(VARCHAR);
const DOUBLE_LIST = LIST(DOUBLE);

function appendCell(appender: DuckDBAppender, type: CellType, cell: Cell): void {
  if (cell === null) return appender.appendNull();
  switch (type) {
    case 'v': return appender.appendVarchar(String(cell));
    case 'b': return appender.appendBoolean(cell === true);
    case 'd': return appender.appendDouble(Number(cell));
    case 'i': return appender.appendInteger(Number(cell));
    case 'vl': return appender.appendList(cell as readonly string[], VARCHAR_LIST);
    case 'dl': return appender.appendList(cell as readonly number[], DOUBLE_LIST);
  }
}

export class TableAppenders {
  private readonly open = new Map<string, DuckDBAppender>();

  constructor(private readonly connection: DuckDBConnection) {}

  /** Buffers rows in the table's appender; `flushAll` moves them into the current transaction. */
  async append<R>(spec: TableCells<R>, runId: string, rows: readonly R[]): Promise<void> {
    if (rows.length === 0) return;
    const appender = await this.get(spec.table);
    for (const row of rows) {
      const cells = spec.cells(runId, row);
      spec.types.forEach((type, i) => appendCell(appender, type, cells[i] ?? null));
      appender.endRow();
    }
  }

  /** Flushes every table's buffered rows into the current transaction (once per transaction: a flush is costly). */
  flushAll(): void {
    for (const appender of this.open.values()) appender.flushSync();
  }

  /** Drops rows buffered but not flushed (after an error, before ROLLBACK). */
  clearAll(): void {
    for (const appender of this.open.values()) appender.clear();
  }

  closeAll(): void {
    for (const appender of this.open.values()) appender.closeSync();
    this.open.clear();
  }

  private async get(table: string): Promise<DuckDBAppender> {
    let appender = this.open.get(table);
    if (!appender) {
      appender = await this.connection.createAppender(table);
      this.open.set(table, appender);
    }
    return appender;
  }
}
