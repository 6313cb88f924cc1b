/**
 * On a narrow screen a table shows each row as a card of labelled values (styles.css, "Tables
 * as cards"). The labels are the column headings, copied onto each body cell as `data-label`
 * once, here, for every table under `root`, instead of by every table component; CSS shows
 * them. Screen readers keep the table's own header associations (the CSS label has empty
 * alternative text).
 */
export function labelTableCells(table: HTMLTableElement): void {
  const headerRow = table.tHead?.rows[0];
  if (!headerRow) return;
  // The heading of each column, spans counted.
  const headings: string[] = [];
  for (const cell of headerRow.cells) {
    const text = cell.textContent.trim();
    for (let span = 0; span < cell.colSpan; span++) headings.push(text);
  }
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        const heading = cell.colSpan === 1 ? headings[column] : undefined;
        if (heading && cell.dataset.label !== heading) cell.dataset.label = heading;
        column += cell.colSpan;
      }
    }
  }
}

/** Labels every table under `root` now and whenever rows come and go; returns the stop. */
export function observeTableCellLabels(root: HTMLElement): () => void {
  const labelAll = () => root.querySelectorAll('table').forEach(labelTableCells);
  labelAll();
  let scheduled = 0;
  // Batched to one pass a frame: a virtualized table swaps many rows at once while scrolling.
  const observer = new MutationObserver(() => {
    if (scheduled) return;
    scheduled = requestAnimationFrame(() => {
      scheduled = 0;
      labelAll();
    });
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    cancelAnimationFrame(scheduled);
  };
}
