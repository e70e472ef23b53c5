export { freePort } from '@forms-api/internal/free-port';
