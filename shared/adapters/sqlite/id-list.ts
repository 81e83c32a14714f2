// Lists of ids stored in one column as comma-separated text: UUIDs never contain a comma, and splitting is far
// cheaper than parsing and validating JSON on every row of every list.
export const encodeIds = (ids: readonly string[]): string => ids.join(",");
export const decodeIds = (column: string): string[] => (column === "" ? [] : column.split(","));
