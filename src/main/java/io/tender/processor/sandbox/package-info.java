/**
 * The sandbox processor of test mode (decisions §6): its books are a table of every answered call, so it holds
 * across restarts and instances, and a status query can be answered. Card numbers choose outcomes and are never
 * written down.
 */
package io.tender.processor.sandbox;
