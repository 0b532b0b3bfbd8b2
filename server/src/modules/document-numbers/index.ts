/**
 * The document-numbers module's public entry: the only file other modules import from it.
 * Owns the tables `document_number_rules`, `document_number_counters` and
 * `document_number_reservations`. Saving a record issues its number inside the save's transaction
 * (`issueDocumentNumber`), or consumes one reserved when the new-record form opened
 * (`reserveDocumentNumber` → `consumeReservedNumber`); see README.md beside this file.
 */
export { documentNumberRoutes } from './document-numbers.routes.ts';
export {
  consumeReservedNumber,
  issueDocumentNumber,
  reserveDocumentNumber,
  voidReservedNumber,
  voidStaleReservations,
  type IssuedDocumentNumber,
} from './document-number-issuer.ts';
