// Preact's attribute types allow signals for className; our components take strings.
export type WithClass<T> = Omit<T, "className" | "class"> & { className?: string };
