#!/usr/bin/env python3
"""Replays the Berkeley Function Calling Leaderboard's ground truth through the gate.

Downloads the `bfcl-eval` wheel from PyPI (Apache-2.0; nothing of it is kept in this
repository), takes every tool definition of its questions and its possible answers, and
writes, into OUT (default target/bfcl):

- tools-raw.json: the definitions as BFCL ships them, each under a name of its own
  (`<question id>__<name>`: the same name has different definitions in different questions);
- tools.json: the same definitions as BFCL's own evaluation converts them before sending them
  to a model with function calling (OpenAI chat style): `_func_doc_language_specific_pre_processing`
  in bfcl_eval/utils.py (Java and JavaScript parameters become strings), then
  `convert_to_tool(functions, GORILLA_TO_OPENAPI, ModelStyle.OPENAI_COMPLETIONS)` in
  bfcl_eval/model_handler/utils.py, whose `_cast_to_openai_type` maps BFCL's type names with
  `GORILLA_TO_OPENAPI` of bfcl_eval/constants/type_mappings.py (dict -> object, float ->
  number with `"format": "float"`, tuple -> array, any -> string, ...). Those functions are
  read from the downloaded wheel's source and run as they are, not copied;
- calls.jsonl: one call per ground-truth call, in the replay log format, each argument given
  the first value its possible answers list (`""`, which means "may be left out", is skipped;
  an argument whose only answer is `""` is left out). Multi-turn ground truth (Python call
  syntax) is read with `ast`; positional arguments take the order of the parameters.

Then it runs `toolargs replay` on both tool lists and prints how many definitions load, the
refusals by reason, and the outcome of the calls.

    python3 scripts/bfcl.py [--out DIR] [--version VERSION]
"""

import argparse
import ast
import collections
import copy
import glob
import json
import os
import re
import subprocess
import sys
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The single-turn categories whose questions carry their functions, and the multi-turn ones
# whose functions come from multi_turn_func_doc/ by class.
MULTI_TURN = ["multi_turn_base", "multi_turn_long_context", "multi_turn_miss_func",
              "multi_turn_miss_param"]


def download(out, version):
    spec = f"bfcl-eval=={version}" if version else "bfcl-eval"
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", out, spec],
                   check=True)
    wheels = sorted(glob.glob(os.path.join(out, "bfcl_eval-*.whl")))
    if not wheels:
        sys.exit("no bfcl_eval wheel downloaded")
    wheel = wheels[-1] if not version else next(w for w in wheels if f"-{version}-" in w)
    root = os.path.join(out, "wheel")
    with zipfile.ZipFile(wheel) as z:
        z.extractall(root)
    return os.path.basename(wheel), os.path.join(root, "bfcl_eval")


def functions_of(path, names, namespace):
    """Runs the top-level functions `names` of a BFCL source file in `namespace`, without
    importing the module (which would need BFCL's dependencies)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = set(names) - {n.name for n in wanted}
    if missing:
        sys.exit(f"{path}: no {', '.join(sorted(missing))}; BFCL changed its code")
    exec(compile(ast.Module(body=wanted, type_ignores=[]), path, "exec"), namespace)
    return namespace


def bfcl_conversion(package):
    """BFCL's own conversion of one question's functions, for its category."""
    mappings = {}
    exec(open(os.path.join(package, "constants", "type_mappings.py")).read(), mappings)
    namespace = {"json": json, "copy": copy, "re": re,
                 "GORILLA_TO_OPENAPI": mappings["GORILLA_TO_OPENAPI"]}
    functions_of(os.path.join(package, "utils.py"),
                 ["is_java", "is_js", "_get_language_specific_hint",
                  "_func_doc_language_specific_pre_processing"], namespace)
    functions_of(os.path.join(package, "model_handler", "utils.py"),
                 ["_cast_to_openai_type", "convert_to_tool"], namespace)

    class ModelStyle:  # the members convert_to_tool compares with; only the first is used
        OPENAI_COMPLETIONS, OPENAI_RESPONSES, MISTRAL, GOOGLE, OSSMODEL, ANTHROPIC = range(6)
        COHERE, AMAZON, NOVITA_AI, WRITER, FIREWORK_AI = range(6, 11)

    namespace["ModelStyle"] = ModelStyle

    def convert(functions, category):
        functions = namespace["_func_doc_language_specific_pre_processing"](
            copy.deepcopy(functions), category)
        return namespace["convert_to_tool"](functions, namespace["GORILLA_TO_OPENAPI"],
                                            ModelStyle.OPENAI_COMPLETIONS)

    return convert


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def choose(options):
    """The first possible answer that is not "" (left out), or None to leave it out."""
    for option in options:
        if option != "":
            return concrete(option)
    return None


def concrete(value):
    """A possible answer with the options nested in it chosen: a dict whose values are lists
    of options (BFCL's dict checker), or a list of such dicts."""
    if isinstance(value, dict) and value and all(isinstance(v, list) for v in value.values()):
        out = {}
        for key, options in value.items():
            chosen = choose(options)
            if chosen is not None:
                out[key] = chosen
        return out
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [concrete(v) for v in value]
    return value


def tool_name(prefix, name):
    # What convert_to_tool does to a name with a dot for OpenAI-style models.
    return f"{prefix}__{re.sub(r'[.]', '_', name)}"


def multi_turn_call(text, docs):
    """(name, arguments) of one multi-turn ground-truth call such as `cd(folder='x')`."""
    call = ast.parse(text, mode="eval").body
    name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
    doc = docs.get(name)
    if doc is None:
        return name, None
    order = list(doc["parameters"]["properties"])
    arguments = {order[i]: ast.literal_eval(a) for i, a in enumerate(call.args)}
    arguments.update({k.arg: ast.literal_eval(k.value) for k in call.keywords})
    return name, arguments


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(REPO, "target", "bfcl"))
    parser.add_argument("--version", help="bfcl-eval version (default: the newest)")
    parser.add_argument("--no-replay", action="store_true")
    options = parser.parse_args()
    os.makedirs(options.out, exist_ok=True)
    wheel, package = download(options.out, options.version)
    data = os.path.join(package, "data")
    convert = bfcl_conversion(package)

    raw, converted, calls = [], [], []
    skipped = collections.Counter()
    per_category = collections.Counter()
    for path in sorted(glob.glob(os.path.join(data, "BFCL_v*_*.json"))):
        category = re.sub(r"^BFCL_v\d+_", "", os.path.basename(path))[:-len(".json")]
        if category in MULTI_TURN or category in ("memory", "web_search",
                                                  "format_sensitivity"):
            continue  # no function list of their own (multi-turn is below)
        answers = {}
        answer_path = os.path.join(data, "possible_answer", os.path.basename(path))
        if os.path.exists(answer_path):
            answers = {a["id"]: a["ground_truth"] for a in read_jsonl(answer_path)}
        for question in read_jsonl(path):
            qid = question["id"]
            functions = question["function"]
            per_category[category] += len(functions)
            for function in functions:
                named = dict(function, name=tool_name(qid, function["name"]))
                raw.append({"name": named["name"], "description": named.get("description", ""),
                            "parameters": named.get("parameters")})
            for tool in convert(functions, category):
                tool["function"]["name"] = f"{qid}__{tool['function']['name']}"
                converted.append(tool)
            for ground in answers.get(qid, []):
                for name, arguments in ground.items():
                    args = {}
                    for key, opts in arguments.items():
                        chosen = choose(opts)
                        if chosen is not None:
                            args[key] = chosen
                    calls.append({"tool": tool_name(qid, name), "category": category,
                                  "arguments": args})

    # Multi-turn: each class's functions once, and the ground truth of every turn.
    mapping_ns = {}
    exec(open(os.path.join(package, "constants", "executable_backend_config.py")).read(),
         mapping_ns)
    docs_by_class = {}
    for cls, file in mapping_ns["MULTI_TURN_FUNC_DOC_FILE_MAPPING"].items():
        docs = read_jsonl(os.path.join(data, "multi_turn_func_doc", file))
        docs_by_class[cls] = {d["name"]: d for d in docs}
        per_category["multi_turn_func_doc"] += len(docs)
        for doc in docs:
            named = dict(doc, name=tool_name(cls, doc["name"]))
            raw.append({"name": named["name"], "description": named.get("description", ""),
                        "parameters": named.get("parameters")})
        for tool in convert(docs, "multi_turn_base"):
            tool["function"]["name"] = f"{cls}__{tool['function']['name']}"
            converted.append(tool)
    for category in MULTI_TURN:
        questions = {q["id"]: q for q in read_jsonl(os.path.join(data, f"BFCL_v4_{category}.json"))}
        for answer in read_jsonl(os.path.join(data, "possible_answer", f"BFCL_v4_{category}.json")):
            classes = questions[answer["id"]]["involved_classes"]
            for turn in answer["ground_truth"]:
                for text in turn:
                    found = False
                    for cls in classes:
                        name, arguments = multi_turn_call(text, docs_by_class[cls])
                        if arguments is not None:
                            calls.append({"tool": tool_name(cls, name), "category": category,
                                          "arguments": arguments})
                            found = True
                            break
                    if not found:
                        skipped["multi-turn call to no documented function"] += 1

    for name, tools in (("tools-raw.json", raw), ("tools.json", converted)):
        with open(os.path.join(options.out, name), "w", encoding="utf-8") as f:
            json.dump(tools, f, ensure_ascii=False)
    with open(os.path.join(options.out, "calls.jsonl"), "w", encoding="utf-8") as f:
        for call in calls:
            f.write(json.dumps(call, ensure_ascii=False) + "\n")

    print(f"{wheel}: {len(converted)} definitions "
          f"({', '.join(f'{k} {v}' for k, v in sorted(per_category.items()))}), "
          f"{len(calls)} ground-truth calls" + (f", skipped: {dict(skipped)}" if skipped else ""))
    if options.no_replay:
        return
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "toolargs-cli"], cwd=REPO,
                   check=True)
    binary = os.path.join(REPO, "target", "release", "toolargs")
    for label, tools in (("as shipped", "tools-raw.json"), ("as BFCL converts them", "tools.json")):
        result = subprocess.run([binary, "replay", "--tools", os.path.join(options.out, tools),
                                 "--format", "json", "--by", "category",
                                 os.path.join(options.out, "calls.jsonl")],
                                capture_output=True, text=True)
        if result.returncode not in (0, 1):
            sys.exit(result.stderr)
        report = json.loads(result.stdout)
        with open(os.path.join(options.out, f"report-{tools[:-5]}.json"), "w") as f:
            json.dump(report, f, indent=1)
        summarize(label, len(raw), report)


def reason(message):
    """A refusal's reason without the names and numbers of the place it is about."""
    return re.sub(r"`[^`]*`", "`…`", message)


def summarize(label, definitions, report):
    refused = report["refused_definitions"]
    print(f"\n== definitions {label}: {definitions - len(refused)} of {definitions} load, "
          f"{len(refused)} refused")
    for why, count in collections.Counter(reason(r["reason"]) for r in refused).most_common():
        print(f"  {count:6}  {why}")
    warnings = report.get("load_warnings", {})
    print(f"  load warnings: {warnings.get('count', 0)}")
    print(f"== calls: {report['total']} records: ok_clean {report['ok_clean']}, ok_repaired "
          f"{report['ok_repaired']}, rejected {report['rejected']}, unchecked "
          f"{report['unchecked']}, bad records "
          f"{sum(b['count'] for b in report['bad_records'].values())}")
    for title, table in (("repairs", report["repairs"]), ("rejections", report["rejections"])):
        if table:
            print(f"  {title}: " + ", ".join(f"{k} {v}" for k, v in
                                             sorted(table.items(), key=lambda kv: -kv[1])))
    for group in report["groups"]:
        print(f"  {group['key']['category']:24} clean {group['ok_clean']:5}  repaired "
              f"{group['ok_repaired']:4}  rejected {group['rejected']:4}  unchecked "
              f"{group['unchecked']:4}")


if __name__ == "__main__":
    main()
