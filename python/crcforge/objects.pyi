# SPDX-License-Identifier: MIT
"""Types of crcforge.objects (re-exported in part by the package)."""
import os
from concurrent.futures import Executor
from typing import IO, Any, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union, overload

from ._crcforge import Algo

#: A path, an open binary file, or a URL that fsspec opens.
Source = Union[str, bytes, os.PathLike[str], os.PathLike[bytes], IO[bytes]]
#: One part size (an int, or a size string as `crcforge sum --part-size` reads it: "8MB",
#: "8MiB", "123"), or the size of every part in order.
PartSizes = Union[int, str, Sequence[int]]
StorageOptions = Mapping[str, Any]

MAX_PARTS: int
DEFAULT_CHUNK: int
DEFAULT_TIMEOUT: float
REQUEST_ATTEMPTS: int
S3_ALGORITHMS: Mapping[str, str]

class SourceChanged(OSError): ...
class SourceTruncated(OSError): ...
class SourceTimeout(TimeoutError): ...
class StoredChecksumError(ValueError): ...

class StoredChecksum(NamedTuple):
    algorithm: str
    checksum_type: str
    value: str
    part_sizes: Tuple[int, ...]
    size: int

class Verification(NamedTuple):
    ok: bool
    stored: str
    computed: str
    algorithm: str
    checksum_type: str
    part_sizes: Tuple[int, ...]
    object_size: int
    file_size: int
    def __bool__(self) -> bool: ...

def is_url(text: object) -> bool: ...
def part_sizes(size: int, part_size: int, max_parts: int = ...) -> List[int]: ...
@overload
def part_crcs(source: Source, algo: Algo, parts: Optional[PartSizes], *,
              chunk_size: Optional[int] = None, executor: Optional[Executor] = None,
              storage_options: Optional[StorageOptions] = None, timeout: Optional[float] = None,
              deadline: Optional[float] = None,
              max_parts: int = ...) -> Tuple[List[int], List[int]]: ...
@overload
def part_crcs(source: Source, algo: Union[List[Algo], Tuple[Algo, ...]],
              parts: Optional[PartSizes], *, chunk_size: Optional[int] = None,
              executor: Optional[Executor] = None,
              storage_options: Optional[StorageOptions] = None, timeout: Optional[float] = None,
              deadline: Optional[float] = None,
              max_parts: int = ...) -> Tuple[List[Tuple[int, ...]], List[int]]: ...
@overload
def file_checksum(source: Source, algo: Algo = "crc32c", *, chunk_size: Optional[int] = None,
                  executor: Optional[Executor] = None,
                  storage_options: Optional[StorageOptions] = None,
                  timeout: Optional[float] = None, deadline: Optional[float] = None) -> int: ...
@overload
def file_checksum(source: Source, algo: Union[List[Algo], Tuple[Algo, ...]], *,
                  chunk_size: Optional[int] = None, executor: Optional[Executor] = None,
                  storage_options: Optional[StorageOptions] = None,
                  timeout: Optional[float] = None, deadline: Optional[float] = None) -> List[int]: ...
def composite_crc(algo: Algo, crcs: Sequence[int]) -> int: ...
def composite(algo: Algo, crcs: Sequence[int]) -> str: ...
def object_checksum(source: Source, algo: Algo, *, part_size: Optional[PartSizes] = None,
                    chunk_size: Optional[int] = None, executor: Optional[Executor] = None,
                    storage_options: Optional[StorageOptions] = None,
                    timeout: Optional[float] = None, deadline: Optional[float] = None) -> str: ...
def stored_checksum(url: str, *, storage_options: Optional[StorageOptions] = None,
                    timeout: Optional[float] = None,
                    deadline: Optional[float] = None) -> StoredChecksum: ...
def verify_upload(path: Source, url: str, *, chunk_size: Optional[int] = None,
                  executor: Optional[Executor] = None,
                  storage_options: Optional[StorageOptions] = None,
                  file_storage_options: Optional[StorageOptions] = None,
                  stored: Optional[StoredChecksum] = None, timeout: Optional[float] = None,
                  deadline: Optional[float] = None) -> Verification: ...
