package io.tender.secrets;

import java.util.List;

/**
 * Implemented by each repository that stores {@link SecretBox} values: the columns {@link Resealer} must re-seal
 * when the master key is rotated. A new sealed column is listed here by its owner, or a rotation leaves it behind.
 */
public interface SealedColumns {

    List<SealedColumn> sealedColumns();
}
