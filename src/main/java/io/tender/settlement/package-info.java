/**
 * The money-safety kernel shared by every aggregate that moves money at another system (redemptions at voucher
 * providers, payments at processors). Its rules, owned here once:
 * <ul>
 *   <li>a call is recorded as a pending operation, with the key the other side receives, before it is sent
 *       ({@link io.tender.settlement.OperationKeys});</li>
 *   <li>an unknown answer is resolved by asking the other side for the call's status, never by sending it again; a
 *       call that must still happen and never arrived goes again under a fresh, fenced key
 *       ({@link io.tender.settlement.Settlement});</li>
 *   <li>rows are written conditionally on the revision read, under a lease that keeps the recovery job away while a
 *       request works on them ({@link io.tender.settlement.LeasedRows});</li>
 *   <li>an operation is {@code PENDING} while recorded and being sent, and {@code UNKNOWN} once sent without a
 *       definite answer ({@link io.tender.settlement.Settlement.Resolution}), so a row tells whether money may have
 *       moved;</li>
 *   <li>one recovery job, the {@link io.tender.settlement.Janitor}, takes unfinished rows of every
 *       {@link io.tender.settlement.Recoverable} kind in batches on whichever instance gets there first and, once a
 *       row is final, completes every Idempotency-Key still
 *       waiting on it with the final answer ({@link io.tender.settlement.WaitingKeys}).</li>
 * </ul>
 * The kernel knows neither HTTP nor any one aggregate: each aggregate supplies its calls and its table.
 */
@ApplicationModule(allowedDependencies = {"idempotency"})
package io.tender.settlement;

import org.springframework.modulith.ApplicationModule;
