"""The gate on Spark: a DataFrame of recorded tool calls judged as ``toolargs replay`` judges
them, on every executor, for logs past one machine.

:func:`check` adds three columns to a DataFrame with a tool name and an arguments column:
``outcome`` (``"clean"``, ``"repaired"``, ``"rejected"``; ``"unchecked"`` for a tool whose
definition did not load, ``"unknown_tool"`` for a name no definition gives), ``codes`` (the error codes of a rejected call) and ``rules`` (the
repair rules of a repaired one). Batches travel as Arrow (``mapInArrow``) and are judged in
Rust with the GIL released; the definitions are loaded once per Python worker, not per row.
Counting is then plain Spark::

    from pyspark.sql import SparkSession, functions as F
    import toolargs.spark

    spark = SparkSession.builder.getOrCreate()
    calls = spark.read.parquet("s3://logs/tool-calls/")       # columns: tool, arguments, model
    judged = toolargs.spark.check(calls, definitions)           # a list, or a tools/list result
    judged.groupBy("model", "outcome").count().show()
    judged.select("model", F.explode("rules").alias("rule")).groupBy("model", "rule").count()

Needs ``pyspark`` 4 with ``pyarrow`` and ``pandas``, which ``toolargs`` does not install.
"""

import hashlib
import json
from typing import Any, Dict, Iterator

import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, StringType, StructField, StructType

from . import ToolSet

__all__ = ["check"]

#: The columns :func:`check` adds.
COLUMNS = ("outcome", "codes", "rules")

# One loaded set per definitions text in each Python worker: Spark reuses its workers, so a
# set loads once per worker process however many batches and rows it judges.
_LOADED: Dict[str, ToolSet] = {}


def check(
    calls: DataFrame,
    definitions: Any,
    *,
    tool: str = "tool",
    arguments: str = "arguments",
) -> DataFrame:
    """``calls`` with the columns ``outcome``, ``codes`` and ``rules`` added.

    ``definitions`` is what :class:`toolargs.ToolSet` reads (a list of tool definitions, an MCP
    ``tools/list`` result, or its JSON text). ``tool`` names the column of tool names;
    ``arguments`` the column of arguments, as JSON text or as a struct or map (written back to
    JSON text first). A definition that does not load makes its calls ``unchecked``, as replay
counts them.
    """
    for name in COLUMNS:
        if name in calls.columns:
            raise ValueError(f"the DataFrame already has a column {name!r}")
    text = definitions if isinstance(definitions, str) else json.dumps(definitions)
    ToolSet(json.loads(text))  # a list that does not load fails here, on the driver
    key = hashlib.sha256(text.encode()).hexdigest()

    given = calls
    judged_text = arguments
    if not isinstance(calls.schema[arguments].dataType, StringType):
        judged_text = "__toolargs_arguments"
        given = calls.withColumn(judged_text, F.to_json(F.col(arguments)))
    out = StructType(
        list(calls.schema.fields)
        + [
            StructField("outcome", StringType(), False),
            StructField("codes", ArrayType(StringType(), False), False),
            StructField("rules", ArrayType(StringType(), False), False),
        ]
    )
    keep = calls.columns

    def judge(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        tools = _LOADED.get(key)
        if tools is None:
            tools = _LOADED[key] = ToolSet(json.loads(text))
        for batch in batches:
            outcomes, codes, rules = tools.check_many(
                batch.column(tool).to_pylist(), batch.column(judged_text).to_pylist()
            )
            columns = [batch.column(name) for name in keep]
            columns += [
                pa.array(outcomes, pa.string()),
                pa.array(codes, pa.list_(pa.string())),
                pa.array(rules, pa.list_(pa.string())),
            ]
            yield pa.RecordBatch.from_arrays(columns, names=names)

    names = keep + list(COLUMNS)
    return given.mapInArrow(judge, out)
