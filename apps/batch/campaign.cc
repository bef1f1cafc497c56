#include "campaign.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <mjhand/hand/yaml_fields.h>
#include <mjhand/io/text_file.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>

namespace mjhand::batch {

namespace {

namespace fs = std::filesystem;

// A grid value or override value as text: scalars as written; a list of scalars joined by ',' (plugin list keys).
std::string read_value(const Field& f) {
  if (f.node.IsScalar()) {
    if (f.node.Scalar().empty()) f.fail("empty value");
    return f.node.Scalar();
  }
  if (f.node.IsSequence() && f.node.size() > 0) {
    std::string out;
    for (std::size_t i = 0; i < f.node.size(); ++i) {
      const Field item = f.item(i);
      if (!item.node.IsScalar() || item.node.Scalar().empty()) item.fail("expected a plain value, got " + item.shown());
      out += (i ? "," : "") + item.node.Scalar();
    }
    return out;
  }
  f.fail("expected a value or a list of values, got " + f.shown());
}

// Characters allowed in names that become file names and CSV columns.
bool plain_name(const std::string& s) {
  if (s.empty()) return false;
  for (char ch : s) {
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.')) return false;
  }
  return true;
}

// Every ${name} token of text with the 1-based line it is on.
std::vector<std::pair<std::string, int>> tokens(const std::string& text) {
  std::vector<std::pair<std::string, int>> out;
  int line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      const std::size_t end = text.find('}', i + 2);
      if (end == std::string::npos) {
        out.emplace_back("", line);  // unterminated: reported by the caller
        return out;
      }
      out.emplace_back(text.substr(i + 2, end - i - 2), line);
      i = end;
    }
  }
  return out;
}

std::string read_file(const std::string& path, const Field& where) {
  const std::string problem = text_file_problem(path);
  if (!problem.empty()) where.fail("cannot read model file '" + path + "': it " + problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) where.fail("cannot open model file '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Scenario read_scenario(const Field& f, const std::string& base_dir) {
  MapReader map(f);
  Scenario s;
  const Field name = map.required("name");
  s.name = read_string(name);
  if (!plain_name(s.name) || s.name.find('.') != std::string::npos) {
    name.fail("scenario names may use letters, digits, '_' and '-' only (they become file names), got '" + s.name +
              "'");
  }
  const Field model = map.required("model");
  const std::string rel = read_string(model);
  const fs::path p = fs::path(rel).is_absolute() ? fs::path(rel) : fs::path(base_dir) / rel;
  s.model_path = fs::absolute(p).lexically_normal().string();
  s.model_text = read_file(s.model_path, model);
  const std::string ext = fs::path(s.model_path).extension().string();
  s.scene = ext == ".yaml" || ext == ".yml";
  const Field key = map.optional("keyframe");
  if (present(key)) s.keyframe = read_value(key);
  const Field object = map.optional("object");
  if (present(object)) s.object = read_string(object);
  const Field palm = map.optional("palm");
  if (present(palm)) s.palm = read_string(palm);
  const Field fingers = map.optional("fingers");
  if (present(fingers)) s.fingers = read_value(fingers);  // a list of body names, or one comma-separated string
  const Field tips = map.optional("finger_tips");
  if (present(tips)) s.finger_tips = read_value(tips);
  const Field wrist = map.optional("with_wrist");
  if (present(wrist)) s.with_wrist = read_bool(wrist);
  const Field noise = map.optional("init_noise");
  if (present(noise)) s.init_noise = read_nonnegative(noise);
  const Field ov = map.optional("overrides");
  if (present(ov) && !ov.node.IsNull()) {
    MapReader o(ov);
    for (auto it = ov.node.begin(); it != ov.node.end(); ++it) {
      const std::string k = it->first.Scalar();
      const Field v = o.required(k);
      const std::size_t dot = k.find('.');
      if (dot == std::string::npos || dot == 0 || dot + 1 == k.size()) {
        v.fail("override keys are INSTANCE.KEY (a plugin instance and one of its keys)");
      }
      s.overrides.emplace_back(k, read_value(v));
    }
    o.finish();
  }
  map.finish();
  return s;
}

}  // namespace

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hash_hex(const std::string& text) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(fnv1a(text)));
  return buf;
}

std::string substitute(const std::string& text, const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      const std::size_t end = text.find('}', i + 2);
      if (end != std::string::npos) {
        const std::string name = text.substr(i + 2, end - i - 2);
        for (const auto& [k, v] : params) {
          if (k == name) {
            out += v;
            i = end;
            goto next;
          }
        }
      }
    }
    out += text[i];
  next:;
  }
  return out;
}

Campaign parse_campaign(const std::string& yaml, const std::string& file, const std::string& base_dir) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw SpecError(file, e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg);
  }
  Campaign c;
  c.file = file;
  MapReader map(Field{&c.file, root, "", root.Mark()});
  const Field name = map.required("name");
  c.name = read_string(name);
  if (!plain_name(c.name)) name.fail("campaign names may use letters, digits, '_', '-' and '.' (a folder name)");
  const Field out = map.optional("output");
  c.output = present(out) ? read_string(out) : "out";
  c.duration = read_positive(map.required("duration"));
  const Field dt = map.optional("timestep");
  if (present(dt)) c.timestep = read_positive(dt);
  const Field sp = map.optional("sample_period");
  if (present(sp)) c.sample_period = read_nonnegative(sp);
  const Field to = map.optional("timeout");
  if (present(to)) c.timeout = read_nonnegative(to);
  if (c.timestep > 0 && c.duration < c.timestep) map.optional("duration").fail("shorter than one timestep");

  const Field scen = map.required("scenarios");
  std::set<std::string> names;
  for (const Field& f : read_sequence(scen)) {
    Scenario s = read_scenario(f, base_dir);
    if (!names.insert(s.name).second) f.fail("duplicate scenario name '" + s.name + "'");
    c.scenarios.push_back(std::move(s));
  }
  if (c.scenarios.empty()) scen.fail("at least one scenario is needed");

  const Field grid = map.optional("grid");
  std::vector<Field> grid_fields;
  if (present(grid) && !grid.node.IsNull()) {
    MapReader g(grid);
    for (auto it = grid.node.begin(); it != grid.node.end(); ++it) {
      const std::string k = it->first.Scalar();
      const Field v = g.required(k);
      if (!plain_name(k) || k.front() == '.' || k.back() == '.') {
        v.fail("grid parameters are NAME (a ${NAME} in the models) or INSTANCE.KEY (a plugin key)");
      }
      if (k == "seed") v.fail("'seed' is reserved: give seeds with the top-level 'seeds' key");
      if (!v.node.IsSequence() || v.node.size() == 0) v.fail("expected a non-empty list of values");
      std::vector<std::string> values;
      std::set<std::string> seen;
      for (std::size_t i = 0; i < v.node.size(); ++i) {
        const Field item = v.item(i);
        if (!item.node.IsScalar() || item.node.Scalar().empty()) item.fail("expected a plain value, got " + item.shown());
        if (!seen.insert(item.node.Scalar()).second) item.fail("duplicate value '" + item.node.Scalar() + "'");
        values.push_back(item.node.Scalar());
      }
      c.grid.emplace_back(k, values);
      grid_fields.push_back(v);
    }
    g.finish();
  }

  const Field seeds = map.optional("seeds");
  if (present(seeds)) {
    c.seeds.clear();
    if (seeds.node.IsScalar()) {
      const int n = read_int(seeds);
      if (n < 1 || n > 1000000) seeds.fail("a number of seeds must lie in [1, 1000000]");
      for (int i = 0; i < n; ++i) c.seeds.push_back(i);
    } else {
      std::set<long> seen;
      for (const Field& f : read_sequence(seeds)) {
        const long s = read_int(f);
        if (s < 0) f.fail("seeds are non-negative integers");
        if (!seen.insert(s).second) f.fail("duplicate seed");
        c.seeds.push_back(s);
      }
      if (c.seeds.empty()) seeds.fail("expected a number or a non-empty list of seeds");
    }
  }
  map.finish();

  // Every ${token} must be a grid parameter, and every non-plugin grid parameter must appear in some model.
  std::set<std::string> used;
  for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
    const Scenario& s = c.scenarios[i];
    for (const auto& [tok, line] : tokens(s.model_text)) {
      bool known = false;
      for (const auto& [k, v] : c.grid) known = known || (k == tok && k.find('.') == std::string::npos);
      if (!known) {
        const Field where = scen.item(i);
        MapReader m(where);
        m.required("model").fail(s.model_path + ":" + std::to_string(line) + " uses " +
                                 (tok.empty() ? "an unterminated '${'" : "${" + tok + "}") +
                                 ", which no grid parameter provides");
      }
      used.insert(tok);
    }
  }
  for (std::size_t i = 0; i < c.grid.size(); ++i) {
    const std::string& k = c.grid[i].first;
    if (k.find('.') == std::string::npos && !used.count(k)) {
      grid_fields[i].fail("no scenario model contains ${" + k + "} (plugin keys are written INSTANCE.KEY)");
    }
  }
  return c;
}

Campaign load_campaign(const std::string& path) {
  const std::string problem = text_file_problem(path);
  if (!problem.empty()) throw SpecError(path, 0, 0, "", "cannot read campaign file: it " + problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SpecError(path, 0, 0, "", "cannot open campaign file");
  std::ostringstream s;
  s << in.rdbuf();
  const fs::path base = fs::path(path).parent_path();
  return parse_campaign(s.str(), path, base.empty() ? "." : base.string());
}

namespace {
// The MJCF of a substituted scene description, or why it cannot be built; mesh paths relative to its folder, where the
// engine places the MJCF text (MuJoCo's VFS under the description's path).
std::pair<std::string, std::string> built_scene_xml(const Scenario& s, const std::string& text) {
  try {
    const std::string dir = fs::path(s.model_path).parent_path().string();
    SceneWriteOptions o;
    o.output_dir = dir;
    return {build_scene(parse_scene_spec(text, s.model_path, dir), o).xml, ""};
  } catch (const std::exception& e) {
    return {"", e.what()};
  }
}
}  // namespace

std::vector<RolloutSpec> expand_campaign(const Campaign& c) {
  std::map<std::string, std::pair<std::string, std::string>> built;  // substituted description -> (MJCF, error)
  std::size_t points = 1;
  for (const auto& g : c.grid) points *= g.second.size();
  std::vector<RolloutSpec> out;
  for (std::size_t si = 0; si < c.scenarios.size(); ++si) {
    const Scenario& s = c.scenarios[si];
    for (std::size_t gp = 0; gp < points; ++gp) {
      std::vector<std::pair<std::string, std::string>> params;
      std::size_t rest = gp;
      for (std::size_t k = c.grid.size(); k-- > 0;) {  // last parameter varies fastest
        const auto& [name, values] = c.grid[k];
        params.emplace(params.begin(), name, values[rest % values.size()]);
        rest /= values.size();
      }
      std::vector<std::pair<std::string, std::string>> subst, overrides = s.overrides;
      for (const auto& p : params) (p.first.find('.') == std::string::npos ? subst : overrides).push_back(p);
      std::string text = substitute(s.model_text, subst), error;
      if (s.scene) {
        auto it = built.find(text);
        if (it == built.end()) it = built.emplace(text, built_scene_xml(s, text)).first;
        error = it->second.second;
        text = error.empty() ? it->second.first : "error: " + error;
      }
      std::string variant = s.name + '\n' + hash_hex(text);
      for (const auto& [k, v] : overrides) variant += '\n' + k + '=' + v;
      for (long seed : c.seeds) {
        RolloutSpec r;
        r.index = static_cast<int>(out.size());
        char id[64];
        std::snprintf(id, sizeof(id), "_%03zu_s%ld", gp, seed);
        r.id = s.name + id;
        r.scenario = static_cast<int>(si);
        r.grid_point = static_cast<int>(gp);
        r.seed = seed;
        r.params = params;
        r.model_text = text;
        r.model_error = error;
        r.overrides = overrides;
        r.variant_key = variant;
        // Everything that changes the result; not the absolute path, so a moved checkout keeps its results.
        std::ostringstream h;
        h.precision(17);
        h << "mjhand-batch-rollout v1\n" << variant << "\nmodel " << fs::path(s.model_path).filename().string()
          << "\nkeyframe " << s.keyframe << "\nobject " << s.object << "\nnoise " << s.init_noise << "\nseed "
          << seed << "\nduration " << c.duration << "\ntimestep " << c.timestep << "\nsample " << c.sample_period;
        // Only when given, so that campaigns without them keep their stored results.
        if (!s.palm.empty()) h << "\npalm " << s.palm;
        if (!s.fingers.empty()) h << "\nfingers " << s.fingers;
        if (!s.finger_tips.empty()) h << "\nfinger_tips " << s.finger_tips;
        if (s.with_wrist) h << "\nwith_wrist";
        for (const auto& [k, v] : params) h << "\nparam " << k << '=' << v;
        r.hash = hash_hex(h.str());
        out.push_back(std::move(r));
      }
    }
  }
  return out;
}

}  // namespace mjhand::batch
