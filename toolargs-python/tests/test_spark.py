"""`toolargs.spark` on a local[2] session: its counts equal `toolargs.replay`'s on the same calls."""

import collections
import json
import os
import pathlib
import subprocess
import sys

import pytest
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import toolargs
import toolargs.spark

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
DEFINITIONS = json.loads((WORKSPACE / "toolargs-cli/tests/data/tools.json").read_text())


@pytest.fixture(scope="module")
def spark():
    # The workers run this interpreter, which has the package (not the first `python3` on PATH).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("toolargs-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """3 000 calls of the refund corpus, with a call to a tool nobody defined."""
    path = tmp_path_factory.mktemp("corpus") / "refund.jsonl"
    subprocess.run(
        [sys.executable, str(WORKSPACE / "scripts/gen_corpus.py"), "3000", str(path)], check=True
    )
    with path.open("a") as log:
        log.write(json.dumps({"id": -1, "model": "m", "tool": "nobody", "arguments": "{}"}) + "\n")
    return path


def test_the_counts_equal_replays_on_the_same_calls(spark, corpus):
    # As text: arguments logged as objects are read back as their JSON text.
    calls = spark.read.schema("id long, model string, prompt_version string, tool string, arguments string").json(
        str(corpus)
    )
    judged = toolargs.spark.check(calls, DEFINITIONS).cache()
    assert judged.columns == calls.columns + ["outcome", "codes", "rules"]
    report = toolargs.replay(str(corpus), tools=DEFINITIONS, by="model")

    outcomes = {r["outcome"]: r["count"] for r in judged.groupBy("outcome").count().collect()}
    assert outcomes == {
        name: report[key]
        for name, key in [
            ("clean", "ok_clean"),
            ("repaired", "ok_repaired"),
            ("rejected", "rejected"),
            ("unchecked", "unchecked"),
        ]
        if report[key]
    } | {"unknown_tool": report["bad_records"]["unknown_tool"]["count"]}
    assert outcomes["clean"] > 1000 and outcomes["repaired"] > 100 and outcomes["rejected"] > 100

    # GROUP BY model, as the report's groups.
    by_model = collections.defaultdict(dict)
    for row in judged.groupBy("model", "outcome").count().collect():
        by_model[row["model"]][row["outcome"]] = row["count"]
    for group in report["groups"]:
        counts = by_model[group["key"]["model"]]
        assert counts.get("rejected", 0) == group["rejected"]
        assert counts.get("repaired", 0) == group["ok_repaired"]
        assert counts.get("clean", 0) == group["ok_clean"]

    # Each rule and each code, counted over calls as the report counts them.
    rules = judged.select(F.explode(F.array_distinct("rules")).alias("rule")).groupBy("rule").count()
    assert {r["rule"]: r["count"] for r in rules.collect()} == report["repairs"]
    codes = judged.select(F.explode(F.array_distinct("codes")).alias("code")).groupBy("code").count()
    assert {r["code"]: r["count"] for r in codes.collect()} == report["rejections"]


def test_arguments_held_as_structs_are_judged_as_their_json(spark):
    arguments = {"order_id": "ord_AbCd1234", "amount_cents": "1999", "reason": "late"}
    rows = [("issue_refund", arguments), ("nobody", {"x": "1"})]
    calls = spark.createDataFrame(rows, "tool string, arguments map<string,string>")
    judged = toolargs.spark.check(calls, DEFINITIONS).collect()
    tools = toolargs.ToolSet(DEFINITIONS)
    expected = tools.parse("issue_refund", arguments)
    assert expected.ok and judged[0]["outcome"] == "repaired"
    assert judged[0]["rules"] == [r.rule for r in expected.repairs]
    assert judged[0]["codes"] == [e.code for e in expected.errors]
    assert judged[1]["outcome"] == "unknown_tool"


def test_a_frame_that_already_has_the_columns_is_refused(spark):
    calls = spark.createDataFrame([("refund", "{}", "x")], "tool string, arguments string, outcome string")
    with pytest.raises(ValueError, match="outcome"):
        toolargs.spark.check(calls, DEFINITIONS)
