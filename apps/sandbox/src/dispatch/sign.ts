// Signs webhook bodies exactly as receivers verify them, with the toolkit's own signer.
export { sign } from '@forms-api/webhook-verify';
