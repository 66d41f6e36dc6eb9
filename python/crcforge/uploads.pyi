# SPDX-License-Identifier: MIT
"""Types of crcforge.uploads (re-exported by the package)."""
import sys
from concurrent.futures import Executor
from typing import Iterable, NamedTuple, Optional, Tuple, Union

from .objects import PartSizes, Source, StorageOptions

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

AZURE_MAX_BLOCKS: int

class AzureBlocks(NamedTuple):
    values: Tuple[str, ...]
    sizes: Tuple[int, ...]
    whole: str

def gcs_crc32c(data: Buffer) -> str: ...
def azure_crc64(data: Buffer) -> str: ...
def azure_crc64_value(text: Union[str, bytes]) -> int: ...
def azure_crc64_combine(blocks: Iterable[Tuple[Union[str, bytes, int], int]]) -> str: ...
def azure_block_crc64s(source: Source, block_size: PartSizes, *,
                       chunk_size: Optional[int] = None, executor: Optional[Executor] = None,
                       storage_options: Optional[StorageOptions] = None,
                       timeout: Optional[float] = None,
                       deadline: Optional[float] = None) -> AzureBlocks: ...
