import express from 'express';
import { verify } from '@forms-api/webhook-verify';

const secret = process.env.FORMS_WEBHOOK_SECRET!;

const app = express();
app.post('/hook', express.raw({ type: 'application/json' }), async (req, res) => {
  // express.raw() gives a Buffer only for application/json; anything else is not a delivery.
  if (!Buffer.isBuffer(req.body)) return res.status(415).end();
  if (!(await verify(secret, req.body, req.get('x-webhook-signature')))) return res.status(401).end();
  const event = JSON.parse(req.body.toString('utf8'));
  console.log(event.form_title); // … handle the event …
  res.status(204).end();
});
app.listen(Number(process.env.PORT ?? 3000));
