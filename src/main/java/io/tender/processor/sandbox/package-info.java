/**
 * The sandbox processor of test mode (decisions §6): its books are a table of every answered call, so it holds
 * across restarts and instances, and a status query can be answered. Card numbers choose outcomes and are never
 * written down. A named interface of {@code processor}: besides the processor registry, the test-mode tools use it
 * directly (the checkout's and the simulator's 3-D Secure and bank pages decide a pending attempt).
 */
@NamedInterface("sandbox")
package io.tender.processor.sandbox;

import org.springframework.modulith.NamedInterface;
