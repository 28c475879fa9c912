/* Access to the generated table of embedded sources. */
#include "runtime/sources.h"

const ocf_program_source *ocf_program_source_get(ocf_program_id id) {
  return (unsigned)id < OCF_PROGRAM_COUNT ? &ocf_program_sources[id] : NULL;
}

int ocf_program_retargets_sm90a(ocf_program_id id) {
  return id == OCF_PROGRAM_MATMUL_WGMMA_NV || id == OCF_PROGRAM_ATTENTION_WGMMA_NV;
}
