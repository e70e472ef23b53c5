export {};

// A file answer's file_url is a signed link, valid 10 minutes; it needs no token.
const fileUrl = process.env.FORMS_FILE_URL!;

const response = await fetch(fileUrl); // follows the redirect to storage, if any
if (!response.ok) throw new Error(`download failed with ${response.status}`);
const bytes = new Uint8Array(await response.arrayBuffer());
console.log(response.headers.get('content-type'), bytes.length);
