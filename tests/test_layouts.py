"""Piquet's record layouts (``kernels/layouts.py``) are defined once: every name belongs to one
layout (its prefix), no two fields of a layout share an index, fields are dense from 0, and no
kernel module defines a layout-like constant that shadows one."""

from __future__ import annotations

import pathlib
import re

from piquet_sim.piquet.kernels import layouts as L

# prefix -> the name of the layout's length (fields must be 0..LEN-1); composite layouts
# (blocks per player) are checked block by block.
DENSE = {
    "STAGE_": "STAGE_LEN",
    "DP_": "DP_BLOCK",
    "WIN_": None,
    "PO_": "PO_LEN",
    "RF_": "RF_BLOCK",
    "DSUM_": "DSUM_LEN",
    "GW_": "GW_LEN",
    "XT_": "XT_LEN",
    "XV_": "XV_LEN",
    "CLASS_": "CLASS_COUNT",
    "PIMC_": "PIMC_LEN",
    "ADV_": "ADV_LEN",
    "MB_": "MB_LEN",
    "PST_": "PST_LEN",
    "PROW_": "PROW_LEN",
    "SINK_": "SINK_LEN",
    "TSUM_": "TSUM_LEN",
}
NOT_FIELDS = {"STAGE_PARAMS"}


def _layout(prefix: str) -> dict[str, int]:
    return {
        k: v
        for k, v in vars(L).items()
        if k.startswith(prefix) and isinstance(v, int) and k not in NOT_FIELDS
    }


def test_each_layout_is_dense_and_distinct():
    for prefix, length in DENSE.items():
        fields = {k: v for k, v in _layout(prefix).items() if k != length}
        values = sorted(fields.values())
        assert len(set(values)) == len(values), f"{prefix}* has two fields at one index"
        if length is not None:
            assert values == list(range(getattr(L, length))), f"{prefix}* is not 0..{length}-1"


def test_composite_records_fit_their_blocks():
    assert L.DECL_YOUNGER == L.DP_BLOCK and L.DECL_LEN == 2 * L.DP_BLOCK + 3
    assert L.REC_YOUNGER == L.RF_BLOCK and L.REC_LEN == 2 * L.RF_BLOCK + 4
    assert L.MATCH_LEN == L.MATCH_BLOCKS + 4 * L.MB_LEN


def test_no_kernel_module_redefines_a_layout_name():
    names = {k for k in vars(L) if k.isupper()}
    kernels = pathlib.Path(L.__file__).parent
    for path in kernels.glob("*.py"):
        if path.name == "layouts.py":
            continue
        defined = set(re.findall(r"^([A-Z][A-Z0-9_]*) = ", path.read_text(), flags=re.M))
        assert not defined & names, f"{path.name} redefines {sorted(defined & names)}"
