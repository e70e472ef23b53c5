// The shape of an HTTP answer the inbox gives (status, headers, body), apart from the code that
// builds it, so the receive path and the metrics endpoint share it without importing each other.
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
